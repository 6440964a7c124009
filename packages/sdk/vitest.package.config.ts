import { defineConfig } from 'vitest/config';

/** The packaging test: packs the contract and the SDK and installs them in a fresh project. */
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
