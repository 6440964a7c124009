import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver got it, body as raw bytes. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Answers one received request; it may also never answer, to play a hanging receiver. */
export type ReceiverHandler = (request: ReceivedRequest, response: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 that records every request, for delivery tests. */
export interface LoopbackReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request received so far, in arrival order. */
  requests: ReceivedRequest[];
  /** Closes the server, cutting connections still waiting for an answer. */
  close(): Promise<void>;
}

/** Starts a loopback receiver on an ephemeral port; `handler` defaults to answering 200. */
export async function startLoopbackReceiver(
  handler: ReceiverHandler = (_request, response) => response.writeHead(200).end('ok'),
): Promise<LoopbackReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const received: ReceivedRequest = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(received);
      handler(received, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
