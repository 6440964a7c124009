import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net';
import { startWithRecorder } from '@switchboard/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { BaileysProvider } from '../src/baileys-provider';
import { type BaileysInstanceSettings, createBaileysProvider } from '../src/index';
import { until } from './paired-provider';

const NUMBER = '+14155550160';
const USER = 'wa-line-1';
const PASSWORD = 'p@ss:word/1';

/** What the local proxy and WebSocket endpoint saw. */
interface Seen {
  tunnels: { target: string; credentials: string | undefined }[];
  upgrades: IncomingMessage[];
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as AddressInfo).port;
}

/** A stand-in for WhatsApp's WebSocket endpoint: records the upgrade, then hangs up. */
async function endpoint(seen: Seen): Promise<number> {
  const server = createServer();
  server.on('upgrade', (request: IncomingMessage, socket: Socket) => {
    seen.upgrades.push(request);
    socket.destroy();
  });
  return listen(server);
}

/** Tunnels `client` to `target` (`host:port`) once the proxy said yes. */
function tunnel(client: Socket, target: string, answer: Buffer | string, head?: Buffer): void {
  const [host = '', port = ''] = target.split(/:(?=\d+$)/);
  const upstream = connect(Number(port), host, () => {
    client.write(answer);
    if (head?.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
}

/** A local HTTP CONNECT proxy that asks for Basic credentials. */
async function httpProxy(seen: Seen): Promise<number> {
  const server = createServer();
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    const auth = request.headers['proxy-authorization'];
    const credentials = auth?.startsWith('Basic ')
      ? Buffer.from(auth.slice(6), 'base64').toString()
      : undefined;
    seen.tunnels.push({ target: request.url ?? '', credentials });
    if (credentials !== `${USER}:${PASSWORD}`) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    tunnel(client, request.url ?? '', 'HTTP/1.1 200 Connection Established\r\n\r\n', head);
  });
  return listen(server);
}

/** A local SOCKS5 proxy with username/password authentication (RFC 1928, RFC 1929). */
async function socksProxy(seen: Seen): Promise<number> {
  const server = createTcpServer((client) => {
    let stage: 'greeting' | 'auth' | 'request' = 'greeting';
    let credentials: string | undefined;
    client.on('data', function onData(data: Buffer) {
      if (stage === 'greeting') {
        stage = 'auth';
        client.write(Buffer.from([5, 2])); // username/password
      } else if (stage === 'auth') {
        const userLength = data[1] ?? 0;
        const user = data.subarray(2, 2 + userLength).toString();
        const passLength = data[2 + userLength] ?? 0;
        const pass = data.subarray(3 + userLength, 3 + userLength + passLength).toString();
        credentials = `${user}:${pass}`;
        stage = 'request';
        client.write(Buffer.from([1, credentials === `${USER}:${PASSWORD}` ? 0 : 1]));
      } else {
        client.off('data', onData);
        const type = data[3];
        const host =
          type === 1
            ? [...data.subarray(4, 8)].join('.')
            : data.subarray(5, 5 + (data[4] ?? 0)).toString();
        const port = data.readUInt16BE(data.length - 2);
        seen.tunnels.push({ target: `${host}:${port}`, credentials });
        tunnel(client, `${host}:${port}`, Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
      }
    });
  });
  return listen(server);
}

/** A Baileys instance on the real `makeWASocket`, its sockets pointed at `wsPort`. */
async function startInstance(config: BaileysInstanceSettings, wsPort: number) {
  const provider: BaileysProvider = createBaileysProvider(
    { name: 'wa', config },
    { waWebSocketUrl: `ws://127.0.0.1:${wsPort}/ws/chat`, reconnectDelaysMs: [60_000] },
  );
  await startWithRecorder(provider);
  closers.push(() => provider.stop());
  return provider;
}

describe('a proxy per WhatsApp instance (Baileys’ real socket, a local proxy)', () => {
  it('takes the WebSocket through an HTTP CONNECT proxy with its credentials', async () => {
    const seen: Seen = { tunnels: [], upgrades: [] };
    const wsPort = await endpoint(seen);
    const proxyPort = await httpProxy(seen);
    const provider = await startInstance(
      { proxyUrl: `http://127.0.0.1:${proxyPort}`, proxyUsername: USER, proxyPassword: PASSWORD },
      wsPort,
    );
    await provider.whatsappSessions.enable(NUMBER);
    await until(() => seen.upgrades.length > 0, 10_000);
    expect(seen.tunnels[0]).toEqual({
      target: `127.0.0.1:${wsPort}`,
      credentials: `${USER}:${PASSWORD}`,
    });
    expect(seen.upgrades[0]?.url).toBe('/ws/chat');
    const health = await provider.health();
    expect(health.warnings.map((w) => w.message).join('\n')).not.toMatch(/proxy/);
  });

  it('takes the WebSocket through a SOCKS5 proxy with its credentials', async () => {
    const seen: Seen = { tunnels: [], upgrades: [] };
    const wsPort = await endpoint(seen);
    const proxyPort = await socksProxy(seen);
    const provider = await startInstance(
      { proxyUrl: `socks5://127.0.0.1:${proxyPort}`, proxyUsername: USER, proxyPassword: PASSWORD },
      wsPort,
    );
    await provider.whatsappSessions.enable(NUMBER);
    await until(() => seen.upgrades.length > 0, 10_000);
    expect(seen.tunnels[0]).toEqual({
      target: `127.0.0.1:${wsPort}`,
      credentials: `${USER}:${PASSWORD}`,
    });
  });

  it('names a proxy that does not answer in the health warnings, and never goes around it', async () => {
    const seen: Seen = { tunnels: [], upgrades: [] };
    const wsPort = await endpoint(seen);
    // A port that was just free and is closed again: connections to it are refused.
    const deadPort = await listen(createTcpServer());
    await closers.pop()?.();
    const provider = await startInstance({ proxyUrl: `http://127.0.0.1:${deadPort}` }, wsPort);
    await provider.whatsappSessions.enable(NUMBER);
    const health = await provider.health();
    expect(health.status).toBe('degraded');
    expect(health.warnings).toContainEqual({
      code: 'upstream_unreachable',
      message: `The proxy http://127.0.0.1:${deadPort} does not answer (ECONNREFUSED): the WhatsApp sockets go out through it`,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.upgrades).toHaveLength(0);
  });
});
