import { defineConfig } from 'tsup';

/**
 * Builds the server and CLI entry points to `dist/`. The workspace contract is consumed as
 * TypeScript source, so it is bundled in; real npm dependencies stay external. The SQLite
 * migrations are not copied: `drizzle/` ships beside `dist/` and is found by walking up.
 */
export default defineConfig({
  entry: ['src/main.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  sourcemap: true,
  splitting: true,
  noExternal: ['@switchboard/contract'],
  // The contract's CommonJS dependencies (bundled with it) require() external packages such as
  // zod; an ESM bundle has no `require` unless one is created.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
