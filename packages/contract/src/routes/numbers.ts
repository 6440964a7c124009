import { z } from 'zod';
import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { commonResponses, envelope, errors } from '../schemas/common';
import { SenderNumber } from '../schemas/number';
import { NumberPhoneParams, NumberSendPolicy } from '../schemas/send-policy';

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
    getSendPolicy: {
      method: 'GET',
      path: '/v1/numbers/:phoneNumber/send-policy',
      summary: "Get a number's send policy",
      description:
        "What the operator set for one of the customer's numbers and, per channel, what holds today: the daily cap, the cold-contact cap, the warm-up day and cap, today's counts, when they reset, and any WhatsApp restriction. A send beyond today's allowance stays `queued` with its `hold`. Another customer's number answers 404.",
      pathParams: NumberPhoneParams,
      responses: {
        200: envelope(NumberSendPolicy),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'NOT_FOUND'),
      },
      metadata: { tag: 'Numbers' } satisfies RouteMetadata,
    },
  },
  { commonResponses },
);
