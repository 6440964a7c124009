import { createServer, request, type Server } from 'node:http';

/**
 * A minimal reverse proxy on loopback that hands each request to the next of `upstreams` in turn,
 * as a load balancer in front of several server processes would. An upstream that cannot be
 * reached answers 502 (the client retries, with its Idempotency-Key); responses, event streams
 * included, are piped through as they come.
 */
export class RoundRobinProxy {
  readonly #server: Server;
  #next = 0;
  /** The proxy's loopback origin, once listening. */
  origin = '';

  /** A proxy over `upstreams` (`http://127.0.0.1:<port>` origins), which may be replaced later. */
  constructor(public upstreams: string[]) {
    this.#server = createServer((incoming, outgoing) => {
      const upstream = this.upstreams[this.#next++ % this.upstreams.length] ?? '';
      const target = new URL(incoming.url ?? '/', upstream);
      const forwarded = request(
        target,
        { method: incoming.method, headers: incoming.headers },
        (response) => {
          outgoing.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(outgoing);
        },
      );
      forwarded.on('error', () => {
        if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end('upstream unreachable');
      });
      incoming.pipe(forwarded);
    });
    // A load balancer's idle timeout (60 s, as AWS's), not Node's 5 s: with 5 s, a client that
    // reuses a connection idle for about that long (a pause while a process restarts) can race
    // the proxy closing it and get ECONNRESET, a flake of the test and not of the servers.
    this.#server.keepAliveTimeout = 60_000;
  }

  /** Starts listening on a free loopback port. */
  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    if (address && typeof address === 'object') this.origin = `http://127.0.0.1:${address.port}`;
  }

  /** Stops listening and drops open connections. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
