import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import {
  addCodedIssue,
  E164_PATTERN,
  EMAIL_PATTERN,
  PHONE_LIKE_PATTERN,
  Timestamp,
  Uuid,
} from './common';

/** A WhatsApp phone JID (`<digits>@s.whatsapp.net`, or the older `@c.us`). */
const PHONE_JID_PATTERN = /^\d{2,15}@(s\.whatsapp\.net|c\.us)$/;
/** Twilio's WhatsApp address form, `whatsapp:+<digits>`. */
const TWILIO_WHATSAPP_PATTERN = /^whatsapp:\+\d{2,15}$/;

/**
 * The address of a contact to forget: an E.164 number, an e-mail address (iMessage), or a
 * WhatsApp phone JID. A phone-like value that is not E.164 answers `INVALID_PHONE_NUMBER`.
 */
const ErasableAddress = doc(
  z
    .string()
    .trim()
    .min(1)
    .max(320)
    .superRefine((value, ctx) => {
      if (
        E164_PATTERN.test(value) ||
        PHONE_JID_PATTERN.test(value) ||
        TWILIO_WHATSAPP_PATTERN.test(value) ||
        (EMAIL_PATTERN.test(value) && !value.endsWith('@g.us'))
      ) {
        return;
      }
      if (PHONE_LIKE_PATTERN.test(value)) {
        addCodedIssue(
          ctx,
          'INVALID_PHONE_NUMBER',
          'is not an E.164 phone number (+ and 2 to 15 digits)',
        );
        return;
      }
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: 'must be an E.164 number, an e-mail address or a WhatsApp phone JID',
      });
    }),
  {
    description:
      'The contact: an E.164 number (`+14155550123`; its forms `14155550123@s.whatsapp.net` and `whatsapp:+14155550123` are the same contact) or an e-mail address (iMessage).',
    example: '+14155550123',
  },
);

/** `POST /v1/contact-erasures` body. */
export const EraseContactRequest = z.object({ address: ErasableAddress }).strict();
/** `POST /v1/contact-erasures` body. */
export type EraseContactRequest = z.input<typeof EraseContactRequest>;

/** `POST /admin/v1/contact-erasures` body. */
export const AdminEraseContactRequest = z
  .object({
    address: ErasableAddress,
    customerId: doc(Uuid.optional(), {
      description:
        "Erase only this customer's data about the contact; without it, every customer's, and the kept unrouted inbound items.",
    }),
  })
  .strict();
/** `POST /admin/v1/contact-erasures` body. */
export type AdminEraseContactRequest = z.input<typeof AdminEraseContactRequest>;

const count = (description: string) => doc(z.number().int().nonnegative(), { description });

/** How much an erasure removed. */
export const ErasureCounts = component(
  'ErasureCounts',
  z.object({
    messages: count('Messages to or from the contact, and those of the chats erased with it.'),
    attachments: count('Stored inbound attachment files of those messages.'),
    events: count('Events of the event log that carried the contact or its messages.'),
    deliveries: count('Webhook and callback delivery-log entries of those events.'),
    chats: count('Chats where the contact was the only other party (deleted).'),
    groupsLeft: count('Group chats the contact was removed from (kept, without it).'),
    reactions: count('Reactions the contact sent, or on erased messages.'),
    receipts: count('Per-member receipts of the contact, or of erased messages.'),
    signupCodes: count('Verification codes the contact sent.'),
    faceTimeCalls: count('FaceTime calls with the contact.'),
    capabilityCache: count('Cached reachability answers about the contact.'),
    unroutedInbound: count('Kept unrouted inbound items from or to it (operator erasures only).'),
  }),
  { description: 'How much an erasure removed, per kind of record.' },
);
/** How much an erasure removed. */
export type ErasureCounts = z.infer<typeof ErasureCounts>;

/** The record of one erasure. */
export const ContactErasure = component(
  'ContactErasure',
  z.object({
    id: doc(z.string(), {
      description: '`era_<uuid v7>`.',
      example: 'era_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
    }),
    customerId: doc(Uuid.nullable(), {
      description:
        "The customer whose data was erased; null for an operator's erasure across customers.",
    }),
    addressHash: doc(z.string(), {
      description:
        "HMAC-SHA-256 (hex) of the contact's canonical address under this deployment's erasure key: the record proves what was erased without keeping the address. The same contact always hashes the same on one deployment.",
    }),
    requestedBy: doc(z.string(), {
      description: '`api_key:<id>` for a customer’s erasure, `operator` for the operator’s.',
      example: 'operator',
    }),
    counts: ErasureCounts,
    createdAt: Timestamp,
  }),
  {
    description:
      'The record of forgetting a contact: who asked, when, how much went. The opt-out ledger keeps the fact that the contact opted out, without its messages.',
  },
);
/** The record of one erasure. */
export type ContactErasure = z.infer<typeof ContactErasure>;

/** `GET /admin/v1/contact-erasures` query. */
export const ListContactErasuresQuery = z
  .object({
    customerId: doc(Uuid.optional(), {
      description: "One customer's erasures; without it, the operator's erasures across customers.",
    }),
  })
  .strict();

/** Retention periods in days; null keeps the data (or, in an override, the deployment's period). */
const period = (description: string) =>
  doc(z.number().int().positive().max(36_500).nullable(), { description });

/** A customer's retention periods as the operator sets them. */
export const RetentionPeriods = component(
  'RetentionPeriods',
  z.object({
    eventLog: period('Days the event log keeps an event.'),
    deliveryLog: period('Days the webhook and callback delivery logs keep an attempt.'),
    inboundAttachments: period('Days an inbound attachment file is kept.'),
    messageContent: period(
      'Days a message keeps its body and media; then they are redacted and the record, status and timeline stay. Null: kept.',
    ),
  }),
  {
    description:
      'Retention periods in days per kind of data; null: kept forever (or, in an override, the deployment’s period).',
  },
);
/** Retention periods. */
export type RetentionPeriods = z.infer<typeof RetentionPeriods>;

/** `PUT /admin/v1/customers/:id/retention` body: the customer's overrides, each optional. */
export const UpdateRetentionRequest = z
  .object({
    eventLog: period('Days, or null for the deployment’s period.').optional(),
    deliveryLog: period('Days, or null for the deployment’s period.').optional(),
    inboundAttachments: period('Days, or null for the deployment’s period.').optional(),
    messageContent: period('Days, or null for the deployment’s period.').optional(),
  })
  .strict();
/** `PUT /admin/v1/customers/:id/retention` body. */
export type UpdateRetentionRequest = z.input<typeof UpdateRetentionRequest>;

/** A customer's retention: the deployment's, its overrides, and what applies. */
export const CustomerRetention = component(
  'CustomerRetention',
  z.object({
    customerId: Uuid,
    deployment: RetentionPeriods,
    overrides: RetentionPeriods,
    effective: RetentionPeriods,
  }),
  {
    description:
      "A customer's retention: the deployment's periods, the customer's overrides (each at most the deployment's), and the periods that apply.",
  },
);
/** A customer's retention. */
export type CustomerRetention = z.infer<typeof CustomerRetention>;
