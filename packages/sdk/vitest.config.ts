import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Includes test/package: the packaging test (build, pack, install, type-check) runs in CI too.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Builds dist/ once: the packaging and Bun/Deno tests run what ships.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
