import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest runs one file at a time on a two-core machine by default (cores - 1); the files wait on
    // sockets and timers most of the time, so one a core halves the run (docs/testing.md).
    maxWorkers: '100%',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
