import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // expect.poll gives up after 1 s by default: a loaded CI host can take longer to settle a
    // send (its webhooks, its receipts). The poll still returns as soon as it matches.
    expect: { poll: { timeout: 8_000 } },
    include: ['test/**/*.test.ts'],
    testTimeout: 10_000,
    hookTimeout: 20_000,
  },
});
