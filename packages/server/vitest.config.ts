import { defineConfig } from 'vitest/config';

/** Workspace packages that ship a built `dist/` resolve to their sources under this condition. */
const SOURCE_CONDITION = 'switchboard-source';

export default defineConfig({
  resolve: { conditions: [SOURCE_CONDITION, 'node', 'default'] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, 'node', 'default'] } },
  test: {
    // expect.poll gives up after 1 s by default: a loaded CI host can take longer to settle a
    // send (its webhooks, its receipts). The poll still returns as soon as it matches.
    expect: { poll: { timeout: 15_000 } },
    // Vitest runs one file at a time on a two-core machine by default (cores - 1); the files wait on
    // sockets and timers most of the time, so one a core halves the run (docs/testing.md).
    maxWorkers: '100%',
    // Each worker loads the server's modules once for all its files instead of once a file: that
    // loading was a third of the suite's time. Every test app still has its own database, clock
    // and configuration, and no test relies on a module's state (docs/testing.md).
    isolate: false,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
