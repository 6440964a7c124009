import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // expect.poll gives up after 1 s by default: a loaded CI host can take longer to settle a
    // send (its webhooks, its receipts). The poll still returns as soon as it matches.
    expect: { poll: { timeout: 15_000 } },
    // Vitest runs one file at a time on a two-core machine by default (cores - 1); the files wait on
    // sockets and timers most of the time, so one a core halves the run (docs/testing.md).
    maxWorkers: '100%',
    // Includes test/package: the packaging test (build, pack, install, type-check) runs in CI too.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Builds dist/ once: the packaging and Bun/Deno tests run what ships.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
