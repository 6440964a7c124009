import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessagingProvider } from '@switchboard/provider-kit';

/** A loopback URL that hands every call to a provider's `handleWebhook`, as the gateway does. */
export interface IngressRelay {
  /** The URL to give the provider as `webhookUrl` (`http://127.0.0.1:<port>/ingress`). */
  url: string;
  /** Closes the server. */
  close(): Promise<void>;
}

/**
 * Starts an ingress relay for adapter tests without a gateway: an upstream fake calls `url`, the
 * relay passes method, full URL, headers and raw bytes to the current provider's `handleWebhook`
 * and answers with what it returns (503 when no provider is set).
 */
export async function startIngressRelay(
  providerOf: () => MessagingProvider | undefined,
): Promise<IngressRelay> {
  let base = '';
  const server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const handle = providerOf()?.handleWebhook?.bind(providerOf());
      if (!handle) {
        response.writeHead(503).end();
        return;
      }
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      try {
        const answer = await handle({
          method: request.method ?? 'POST',
          url: `${base}${request.url ?? '/'}`,
          headers,
          rawBody: Buffer.concat(chunks),
        });
        response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
      } catch {
        response.writeHead(500).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/ingress`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
