import { defineConfig } from 'vite';

/**
 * Builds the console to `dist/`: one HTML page, one script and one stylesheet under
 * `/console/assets/`, hashed. Nothing inline (the server answers with a CSP that forbids inline
 * script and style), no data: URIs, no remote origin: the page works offline.
 */
export default defineConfig({
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
