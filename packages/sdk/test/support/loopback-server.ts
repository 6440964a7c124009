import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the loopback server received. */
export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; `index` counts requests from 0. */
export type LoopbackHandler = (
  request: RecordedRequest,
  response: ServerResponse,
  index: number,
) => void | Promise<void>;

/** A real HTTP server on 127.0.0.1 with a scripted handler. */
export interface LoopbackServer {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a node:http server on a free loopback port. */
export async function startLoopbackServer(handler: LoopbackHandler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const index = requests.push(recorded) - 1;
      Promise.resolve(handler(recorded, res, index)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON response. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** The success envelope, as the server writes it. */
export function ok(data: unknown, requestId = 'req_test'): unknown {
  return { success: true, data, requestId };
}

/** The failure envelope, as the server writes it. */
export function failure(code: string, message: string, requestId = 'req_test'): unknown {
  return { success: false, error: { code, message }, requestId };
}

/** Drops the connection without answering, as a crashed proxy or a network cut would. */
export function dropConnection(response: ServerResponse): void {
  response.socket?.destroy();
}
