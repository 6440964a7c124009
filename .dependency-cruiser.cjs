/**
 * Import circles, at file and at folder level, in every workspace package (`pnpm lint:imports`,
 * part of `pnpm test`). The layering of the server's folders (which folder may import which) is
 * Biome's `noRestrictedImports` in biome.json; docs/architecture.md states both.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A module that imports itself through others: the modules of a circle cannot be understood, tested or loaded one without the other. Break it by moving what both need below both, or by handing one a dependency.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      severity: 'error',
      scope: 'folder',
      comment:
        "Two folders that import each other, through any of their files: dependencies between folders point one way (docs/architecture.md). A package's src/ itself is left out: its own files are the composition root (app.ts, main.ts) beside a few leaves every folder uses (clock.ts, ids.ts); the file-level rule still covers them.",
      from: { pathNot: '(^|/)src$' },
      to: { circular: true, pathNot: '(^|/)src$' },
    },
    {
      name: 'routing-below-messages',
      severity: 'error',
      comment:
        "domain/routing/ (the plan, the pure channel planner, the routing trace) sits below the send path that drives it: messages → routing, never back (Biome's rule for the folder says the same per import; this one also catches a type-only or re-exported path).",
      from: { path: '^packages/server/src/domain/routing/' },
      to: { path: '^packages/server/src/domain/(messages|media|attachments)/' },
    },
  ],
  options: {
    // Type-only imports count: a circle of types is still two modules that need each other.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // Production code: tests import test support that imports the code under test by design.
    exclude: {
      path: [
        '(^|/)node_modules/',
        '(^|/)dist/',
        '(^|/)test/',
        '\\.test\\.ts$',
        '\\.test-d\\.ts$',
        '\\.d\\.ts$',
      ],
    },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['switchboard-source', 'import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
