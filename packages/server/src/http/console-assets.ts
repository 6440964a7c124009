import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findUp, moduleDir } from '../find-up';
import { CompressedAssets, type StaticAsset } from './compressed-assets';

/** Where the console lives. */
const CONSOLE_PATH = '/console';

/**
 * The console's Content-Security-Policy: its own script and stylesheet only, no inline script or
 * style, calls to this server only, never framed (decision 0562).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The built console: `packages/console/dist` in the workspace, `console/dist` in the package. */
const CONSOLE_INDEX = 'console/dist/index.html';

/** An asset name Vite writes: no path separator, no dot-dot. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const NOT_BUILT = Buffer.from(
  'The console is not built: run `pnpm --filter @switchboard/console build` (pnpm start does).\n',
);

/** The built console's directory, or undefined when it was not built. */
function consoleDir(): string | undefined {
  try {
    return dirname(findUp(CONSOLE_INDEX, moduleDir(import.meta.url)));
  } catch {
    return undefined;
  }
}

/** Reads the file of a console URL (`/console`, `/console/`, `/console/assets/<name>`). */
async function loadConsoleFile(url: string): Promise<StaticAsset> {
  const dir = consoleDir();
  if (dir === undefined) {
    return { status: 404, contentType: 'text/plain; charset=utf-8', body: NOT_BUILT };
  }
  if (url === CONSOLE_PATH || url === `${CONSOLE_PATH}/`) {
    const body = await readFile(join(dir, 'index.html'));
    return { status: 200, contentType: 'text/html; charset=utf-8', body };
  }
  const name = url.slice(`${CONSOLE_PATH}/assets/`.length);
  const type = CONTENT_TYPES[name.slice(name.lastIndexOf('.'))];
  if (!url.startsWith(`${CONSOLE_PATH}/assets/`) || !ASSET_NAME.test(name) || !type) {
    return {
      status: 404,
      contentType: 'text/plain; charset=utf-8',
      body: Buffer.from('Not found\n'),
    };
  }
  try {
    return { status: 200, contentType: type, body: await readFile(join(dir, 'assets', name)) };
  } catch {
    return {
      status: 404,
      contentType: 'text/plain; charset=utf-8',
      body: Buffer.from('Not found\n'),
    };
  }
}

/**
 * Serves the console's static files at `/console` like `/docs`: compressed, with an ETag, under a
 * strict CSP. The page itself is revalidated on every load (a new build names new assets); the
 * assets' names carry their hash, so they are kept for a year.
 */
export function registerConsole(app: FastifyInstance): void {
  const assets = new CompressedAssets(loadConsoleFile, {
    cacheControl: (url) =>
      url.startsWith(`${CONSOLE_PATH}/assets/`)
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
  });
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cross-origin-opener-policy', 'same-origin');
    return assets.send(request.url.split('?')[0] ?? request.url, request, reply);
  };
  app.get(CONSOLE_PATH, { logLevel: 'warn' }, serve);
  app.get(`${CONSOLE_PATH}/*`, { logLevel: 'warn' }, serve);
}
