import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'webhooks/index': 'src/webhooks/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  // The SDK runs on Node 20+, Deno, Bun, Workers and browsers: no Node-only syntax or globals.
  target: 'es2022',
  splitting: true,
  treeshake: true,
  // The signature format and the server-address rule come from the contract; they are bundled so
  // that the SDK (and `@switchboard/sdk/webhooks`) has no runtime dependency on it.
  noExternal: [/^@switchboard\/contract\/(webhook-signature|server-url)$/],
});
