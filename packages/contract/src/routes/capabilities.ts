import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { CapabilityPathParams, CapabilityRecord } from '../schemas/capability';
import { commonResponses, envelope, errors } from '../schemas/common';

/** The Capabilities route: which channels reach a phone number. */
export const capabilitiesContract = c.router(
  {
    get: {
      method: 'GET',
      path: '/v1/capabilities/:phoneNumber',
      summary: 'Check a phone number',
      description:
        'Whether the number is reachable on imessage, sms, FaceTime and whatsapp, whether a Focus mode is on, and the recommended channel. Results are cached (`cached: true` on a hit).',
      pathParams: CapabilityPathParams,
      responses: {
        200: envelope(CapabilityRecord),
        ...errors('INVALID_PHONE_NUMBER', 'PROVIDER_TIMEOUT'),
      },
      metadata: { tag: 'Capabilities' } satisfies RouteMetadata,
    },
  },
  { commonResponses },
);
