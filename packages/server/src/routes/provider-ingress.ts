import { contract } from '@switchboard/contract';
import type { FastifyInstance } from 'fastify';
import type { IngressService } from '../domain/ingress/ingress-service';

/** What the ingress route needs. */
export interface ProviderIngressOptions {
  /** Authenticates calls and hands them to adapters. */
  ingress: IngressService;
  /** The server's public address: adapters check upstream signatures against it. */
  publicBaseUrl: string;
  /** Largest body taken (`INGRESS_BODY_LIMIT_BYTES`). */
  bodyLimit: number;
}

/**
 * Registers the upstream ingress (`contract.providers.ingress`) outside the API-key scope. It is
 * a plain Fastify route, not a ts-rest one: it must see the raw bytes of any content type (upstream
 * signatures cover them) and answer with whatever status and content type the adapter chooses.
 */
export async function registerProviderIngress(
  app: FastifyInstance,
  options: ProviderIngressOptions,
): Promise<void> {
  const route = contract.providers.ingress;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    scope.route<{ Params: { instanceId: string; token: string } }>({
      method: route.method,
      url: route.path,
      bodyLimit: options.bodyLimit,
      handler: async (request, reply) => {
        const headers: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(request.headers)) {
          headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        const answer = await options.ingress.handle(
          request.params.instanceId,
          request.params.token,
          {
            method: request.method,
            url: `${options.publicBaseUrl}${request.url}`,
            headers,
            rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          },
        );
        reply.status(answer.status);
        for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
        return reply.send(answer.body ?? '');
      },
    });
  });
}
