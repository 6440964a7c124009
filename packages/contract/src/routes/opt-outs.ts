import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { commonResponses, envelope, errors } from '../schemas/common';
import { ListOptOutsQuery, OptOutList } from '../schemas/opt-out';

/** The Opt-outs route: recipients who texted STOP to the customer's numbers. */
export const optOutsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/opt-outs',
      summary: 'List opt-outs',
      description:
        'Recipients who opted out of (or back into) your sender numbers, most recently changed first, with cursor pagination. A send from an opted-out sender to its recipient answers 403 `RECIPIENT_OPTED_OUT` on every channel, unless your `optOutHandling` setting is `upstream`. Compliance help, not legal advice.',
      query: ListOptOutsQuery,
      responses: {
        200: envelope(OptOutList),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER'),
      },
      metadata: { tag: 'Opt-outs' } satisfies RouteMetadata,
    },
  },
  { commonResponses },
);
