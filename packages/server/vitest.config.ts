import { defineConfig } from 'vitest/config';

/** Workspace packages that ship a built `dist/` resolve to their sources under this condition. */
const SOURCE_CONDITION = 'switchboard-source';

export default defineConfig({
  resolve: { conditions: [SOURCE_CONDITION, 'node', 'default'] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, 'node', 'default'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
