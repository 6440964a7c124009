import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { DomainError } from '../domain/domain-error';
import { type ApiReference, DOCS_PATH } from '../http/api-reference';
import { bearerMatches } from '../http/authentication';
import type { Services } from '../wiring/services';

/** Who may read `GET /metrics`. */
export interface MetricsAccess {
  /** No credential needed (`METRICS_OPEN=true`). */
  open: boolean;
  /** The bearer tokens it takes: `METRICS_TOKEN` and the operator token, those that are set. */
  tokens: readonly string[];
}

/**
 * `GET /health`: the report as is, outside the envelope, per the spec; `GET /`: where to go;
 * `GET /openapi.json` and `GET /docs`: the API's own documentation; `GET /metrics`, which needs
 * the metrics or the operator token unless the operator opened it (the spec: every endpoint but
 * `/health` requires authentication).
 */
export function healthRoutes(
  services: Services,
  reference: ApiReference,
  metricsAccess: MetricsAccess,
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
      const header = request.headers.authorization;
      if (!metricsAccess.open && !metricsAccess.tokens.some((t) => bearerMatches(header, t))) {
        throw new DomainError(
          'UNAUTHORIZED',
          'GET /metrics needs Authorization: Bearer <METRICS_TOKEN or SWITCHBOARD_ADMIN_TOKEN> (METRICS_OPEN=true serves it without one)',
        );
      }
      const { body } = await services.metrics.render();
      return { status: 200, body };
    },
    docs: async () => ({ status: 200, body: await reference.html() }),
  };
}
