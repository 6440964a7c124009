import type { Agent as HttpsAgent } from 'node:https';
import { connect } from 'node:net';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { SocksProxyAgent } from 'socks-proxy-agent';

/** A proxy an instance's sockets go out through (`BaileysInstanceConfig.proxy*`). */
export interface BaileysProxySettings {
  /** `http://`, `https://`, `socks5://` or `socks5h://` with host and port. */
  url: string;
  /** The proxy user name. */
  username?: string | undefined;
  /** The proxy password. */
  password?: string | undefined;
}

/** The proxy URL with its credentials, as the agents take it. */
function withCredentials(proxy: BaileysProxySettings): URL {
  const url = new URL(proxy.url);
  if (proxy.username !== undefined) url.username = encodeURIComponent(proxy.username);
  if (proxy.password !== undefined) url.password = encodeURIComponent(proxy.password);
  return url;
}

/**
 * The agent that tunnels through `proxy`: `https-proxy-agent` (HTTP `CONNECT`) for http(s)
 * proxies, `socks-proxy-agent` for SOCKS5. Baileys takes it as `agent` (its WebSocket to WhatsApp)
 * and `fetchAgent` (media uploads on Node).
 */
export function proxyAgentOf(proxy: BaileysProxySettings): HttpsAgent {
  const url = withCredentials(proxy);
  const agent = url.protocol.startsWith('socks')
    ? new SocksProxyAgent(url)
    : new HttpsProxyAgent(url);
  // Baileys declares its agents as `https.Agent`; both proxy agents are `agent-base` agents that
  // serve http and https requests alike (ws and node https take them), so the cast is sound.
  return agent as unknown as HttpsAgent;
}

/** The proxy URL without credentials, for logs and warnings. */
export function proxyLabel(proxy: BaileysProxySettings): string {
  const url = new URL(proxy.url);
  return `${url.protocol}//${url.host}`;
}

/**
 * Why the proxy cannot be reached (a TCP connection to its host and port within `timeoutMs`), or
 * undefined when it answers: the health check's probe, so a dead proxy is named as such rather
 * than as sessions that do not connect.
 */
export function proxyProblem(
  proxy: BaileysProxySettings,
  timeoutMs = 3_000,
): Promise<string | undefined> {
  const url = new URL(proxy.url);
  const defaultPort = url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : 1080;
  const port = Number(url.port || defaultPort);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}
