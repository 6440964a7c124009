import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { DomainError } from '../domain/domain-error';
import { type ApiReference, DOCS_PATH } from '../http/api-reference';
import { bearerMatches } from '../http/authentication';
import type { Services } from '../wiring/services';

/**
 * `GET /health`: the report as is, outside the envelope, per the spec; `GET /`: where to go;
 * `GET /openapi.json` and `GET /docs`: the API's own documentation.
 */
export function healthRoutes(
  services: Services,
  reference: ApiReference,
  metricsToken: string | undefined,
): RouterImplementation<typeof contract.health> {
  return {
    get: async () => ({ status: 200, body: await services.health.report() }),
    index: async () => ({
      status: 200,
      body: {
        name: 'Switchboard' as const,
        health: '/health',
        documentation: DOCS_PATH,
        message:
          'Switchboard is running. Check /health; API calls live under /v1 with Authorization: Bearer <API key>.',
      },
    }),
    openapi: async () => ({ status: 200, body: await reference.document() }),
    metrics: async ({ request }) => {
      const token = metricsToken;
      if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
        throw new DomainError(
          'UNAUTHORIZED',
          'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>',
        );
      }
      const { body } = await services.metrics.render();
      return { status: 200, body };
    },
    docs: async () => ({ status: 200, body: await reference.html() }),
  };
}
