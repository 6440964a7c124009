import { resolveServerUrl as resolveFromContract } from '@switchboard/contract/server-url';

/**
 * The address of a Switchboard server run beside this code, by the rule every Switchboard tool
 * follows: `explicit`, else `SWITCHBOARD_URL`, else `SWITCHBOARD_BASE_URL`, else the server's own
 * settings (`PUBLIC_BASE_URL`, else `http://HOST:PORT`, a wildcard host read as `127.0.0.1`,
 * defaults `127.0.0.1` and 3000). For scripts and tools that share the server's environment or
 * `.env`; an application with a `PORT` of its own should pass `baseUrl` instead.
 * @example const client = new Switchboard({ baseUrl: resolveServerUrl(process.env) });
 */
export function resolveServerUrl(
  env: Readonly<Record<string, string | undefined>>,
  explicit?: string,
): string {
  return resolveFromContract(env, explicit);
}
