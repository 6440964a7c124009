import { z } from 'zod';
import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { doc } from '../schema-annotations';
import { errors } from '../schemas/common';
import { IngressParams } from '../schemas/instance';

/**
 * The upstream ingress: where a provider's upstream (BlueBubbles, Twilio) posts its webhooks.
 * The per-instance token in the path is the credential, so no API key is needed and the per-key
 * rate limit does not apply; the adapter verifies the upstream's own signature on top.
 */
export const providersContract = c.router({
  ingress: {
    method: 'POST',
    path: '/providers/:instanceId/webhook/:token',
    summary: 'Receive an upstream webhook',
    description:
      "Takes a webhook call of the instance's upstream, JSON or `application/x-www-form-urlencoded`, up to `INGRESS_BODY_LIMIT_BYTES`, and hands the raw bytes, the headers and the public URL (built from `PUBLIC_BASE_URL`, for upstreams that sign it) to the instance's adapter, whose status, content type and body are the answer (Twilio gets `<Response/>`). An unknown instance or a wrong token answers 404 `NOT_FOUND` and nothing more; a disabled instance answers 503 `SERVICE_UNAVAILABLE`. The URL is the instance's `ingressUrl` in the operator API.",
    pathParams: IngressParams,
    body: doc(z.unknown(), {
      description: "The upstream's payload, exactly as it sends it.",
    }),
    responses: {
      200: c.otherResponse({ contentType: 'text/plain', body: z.string() }),
      ...errors('NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR'),
    },
    metadata: { tag: 'Providers', auth: false, rateLimited: false } satisfies RouteMetadata,
  },
});
