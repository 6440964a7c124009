/**
 * Where a Switchboard server is reached: the one rule every tool follows (the CLI's customer
 * commands, the fakes, the examples) and that the server uses for its own public address. Pure
 * (no I/O): the caller passes its environment, `.env` already merged into it.
 */

/** The settings the rule reads; every other variable is ignored. */
export interface ServerUrlEnv {
  /** The address a client should use (a tool's own setting). */
  SWITCHBOARD_URL?: string | undefined;
  /** The SDK's older name for `SWITCHBOARD_URL`, still honoured after it. */
  SWITCHBOARD_BASE_URL?: string | undefined;
  /** The server's public address (the server's own setting). */
  PUBLIC_BASE_URL?: string | undefined;
  /** The interface the server listens on (default `127.0.0.1`). */
  HOST?: string | undefined;
  /** The port the server listens on (default 3000). */
  PORT?: string | number | undefined;
}

/** The server's default listening address: `HOST` and `PORT` when unset. */
export const DEFAULT_HOST = '127.0.0.1';
/** The server's default port. */
export const DEFAULT_PORT = 3000;

/**
 * The server's own address: `PUBLIC_BASE_URL`, else `http://HOST:PORT` with a wildcard host
 * (`0.0.0.0`, `::`) named as loopback (`127.0.0.1`), since a client cannot connect to "any interface".
 * Without a trailing slash.
 * @example publicBaseUrlOf({ HOST: '0.0.0.0', PORT: '8080' }) // 'http://127.0.0.1:8080'
 */
export function publicBaseUrlOf(env: ServerUrlEnv): string {
  const explicit = nonEmpty(env.PUBLIC_BASE_URL);
  if (explicit !== undefined) return withoutTrailingSlash(explicit);
  const host = nonEmpty(env.HOST) ?? DEFAULT_HOST;
  const port = nonEmpty(env.PORT === undefined ? undefined : String(env.PORT)) ?? DEFAULT_PORT;
  return `http://${hostForUrl(host)}:${port}`;
}

/**
 * The address a client tool uses to reach the server: `explicit` (a `--url` flag), else
 * `SWITCHBOARD_URL`, else `SWITCHBOARD_BASE_URL`, else the server's own address
 * ({@link publicBaseUrlOf}: `PUBLIC_BASE_URL`, else `HOST`:`PORT`). A tool run beside the server
 * with the same environment or `.env` therefore finds it on whatever port it listens.
 * Without a trailing slash.
 * @example resolveServerUrl(process.env, options.url)
 */
export function resolveServerUrl(env: ServerUrlEnv, explicit?: string): string {
  const url =
    nonEmpty(explicit) ?? nonEmpty(env.SWITCHBOARD_URL) ?? nonEmpty(env.SWITCHBOARD_BASE_URL);
  return url === undefined ? publicBaseUrlOf(env) : withoutTrailingSlash(url);
}

function hostForUrl(host: string): string {
  // Node listens dual-stack on `::`, so IPv4 loopback reaches either wildcard.
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
