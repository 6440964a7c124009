import { defineConfig } from 'tsup';

/**
 * Builds the adapter to `dist/`: the workspace provider kit and contract bits it uses are bundled
 * in (they are private to the workspace); Baileys stays an ordinary dependency, installed beside
 * it and never bundled. Declarations are emitted when packing (`tsup --dts`), not on every build.
 */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  sourcemap: true,
  noExternal: [/^@switchboard\//],
  external: ['baileys'],
});
