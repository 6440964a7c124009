import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The packaging test builds, packs and installs the SDK: run it with `pnpm test:package`.
    exclude: [...configDefaults.exclude, 'test/package/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
