import { z } from 'zod';
import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { commonResponses, envelope, errors } from '../schemas/common';
import { ContactErasure, EraseContactRequest } from '../schemas/contact-erasure';

const metadata = { tag: 'Contact erasure' } satisfies RouteMetadata;

/** Forgetting a contact: the customer's own erasures. */
export const contactErasuresContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/contact-erasures',
      summary: 'Forget a contact',
      description:
        'Erases everything your account holds about one address, at once and for good: messages to and from it with their content and attachment files, the events and webhook/callback delivery-log entries that carry them, chats where it was the only other party (it is removed from group chats), its reactions, receipts, verification codes, FaceTime calls and cached reachability. The opt-out ledger keeps the fact that it opted out (the law requires it), without any message. Answers the record of the erasure with counts; the address itself is kept only as a keyed hash. Erasing an address nothing is held about answers zeros.',
      body: EraseContactRequest,
      responses: {
        201: envelope(ContactErasure),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER'),
      },
      metadata,
    },
    list: {
      method: 'GET',
      path: '/v1/contact-erasures',
      summary: 'List contact erasures',
      description: "Your account's erasures, newest first (the last 100).",
      responses: { 200: envelope(z.array(ContactErasure)) },
      metadata,
    },
  },
  { commonResponses },
);
