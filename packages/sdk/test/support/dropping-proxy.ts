import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

/** A TCP proxy in front of a server that loses the answers of its first connections. */
export interface DroppingProxy {
  /** The proxy's base URL: use it instead of the server's. */
  baseUrl: string;
  /** The raw bytes each connection sent upstream, in connection order. */
  received: string[];
  close(): Promise<void>;
}

/**
 * Forwards every connection to `target` (an `http://host:port` URL). The first `dropConnections`
 * connections have their request delivered to the server but lose its answer: the client socket
 * is destroyed as soon as the server starts answering, as when a network cut or a crashing proxy
 * drops the connection after the server did the work.
 */
export async function startDroppingProxy(
  target: string,
  dropConnections = 1,
): Promise<DroppingProxy> {
  const { hostname, port } = new URL(target);
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const index = received.push('') - 1;
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    client.on('data', (chunk: Buffer) => {
      received[index] += chunk.toString('utf8');
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (index < dropConnections) {
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
