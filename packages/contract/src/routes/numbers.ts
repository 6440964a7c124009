import { z } from 'zod';
import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { commonResponses, envelope } from '../schemas/common';
import { SenderNumber } from '../schemas/number';

/** The Numbers route: the customer's sender addresses. */
export const numbersContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/numbers',
      summary: 'List sender numbers',
      description:
        "The customer's sender addresses with their instance and its health; `phoneNumber` or `email` of any of them is usable as `from`.",
      responses: { 200: envelope(z.array(SenderNumber)) },
      metadata: { tag: 'Numbers' } satisfies RouteMetadata,
    },
  },
  { commonResponses },
);
