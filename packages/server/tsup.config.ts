import { defineConfig } from 'tsup';

/**
 * Builds the server and CLI entry points to `dist/`. The workspace contract and the pure-JS
 * dependencies are bundled in: one file to read and compile instead of hundreds to resolve, which
 * takes about a third of a second off a cold start and a few MB off the idle RSS. Kept external:
 * better-sqlite3 (a native addon), pg (the PostgreSQL driver, a dependency of its own), pino (its transports load worker files beside its own
 * modules), the optional FFmpeg installer packages (they find their binaries beside
 * themselves) and the optional Baileys adapter (GPL-3.0 code, loaded only when configured). The SQLite migrations are not copied: `drizzle/` ships beside `dist/` and is
 * found by walking up. Code split at `import()` lands in chunks of its own that load on first
 * use: the PostgreSQL store, Redis's client, the media sniffer (the packed-package test checks
 * that none of them is reachable from the entry points' static imports).
 */
export default defineConfig({
  // The webhook sender thread's code is an entry of its own: the thread loads only what it uses.
  // Named, so every entry lands directly in `dist/`, beside the chunk that starts the thread.
  entry: {
    main: 'src/main.ts',
    cli: 'src/cli.ts',
    'delivery-sender-worker': 'src/webhooks/delivery-sender-worker.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  sourcemap: true,
  splitting: true,
  noExternal: [
    /^(?!(better-sqlite3|pg|pino|@ffmpeg-installer\/ffmpeg|@ffprobe-installer\/ffprobe|@switchboard\/provider-baileys)$)/,
  ],
  // Bundled CommonJS dependencies require() Node's modules and the external packages; an ESM
  // bundle has no `require` unless one is created.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
