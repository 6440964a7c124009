import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The smoke test runs the whole harness in quick mode: a server build, five scenarios.
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
