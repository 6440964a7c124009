import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import {
  addCodedIssue,
  EMAIL_PATTERN,
  HealthStatus,
  isE164,
  PhoneNumber,
  Timestamp,
  Uuid,
} from './common';

/**
 * What happens to inbound verification-code (OTP) messages of a customer: `suppress` (the spec's
 * default: no event, not listed) or `annotate` (delivered with an `otp` object).
 */
export const OtpHandling = doc(z.enum(['suppress', 'annotate']), {
  description:
    '`suppress` (default): verification-code messages are dropped from events and lists and kept only for the signup-codes endpoint. `annotate`: they are delivered with `otp: {code, provider}`.',
  example: 'suppress',
});
/** What happens to inbound verification-code messages. */
export type OtpHandling = z.infer<typeof OtpHandling>;

/**
 * Who enforces recipients' opt-outs (STOP) for a customer: `gateway` (default: sends to an
 * opted-out recipient are refused at the request) or `upstream` (sends go out and the upstream,
 * e.g. a Twilio Messaging Service with Advanced Opt-Out, refuses them; the ledger still records).
 */
export const OptOutHandling = doc(z.enum(['gateway', 'upstream']), {
  description:
    '`gateway` (default): a send from a number to a recipient who opted out of it answers 403 `RECIPIENT_OPTED_OUT`. `upstream`: sends are handed on and the upstream enforces its own opt-out list (the send then fails with `RECIPIENT_OPTED_OUT`); opt-outs are still recorded and listed.',
  example: 'gateway',
});
/** Who enforces opt-outs. */
export type OptOutHandling = z.infer<typeof OptOutHandling>;

/** A customer's settings as the API answers them. */
export const CustomerSettings = component(
  'CustomerSettings',
  z.object({ otpHandling: OtpHandling, optOutHandling: OptOutHandling }),
  { description: 'Per-customer behaviour switches.' },
);
/** A customer's settings. */
export type CustomerSettings = z.infer<typeof CustomerSettings>;

/** `POST /admin/v1/customers` body. */
export const CreateCustomerRequest = z
  .object({
    name: doc(z.string().trim().min(1).max(200), {
      description: 'Display name of the customer account, 1 to 200 characters.',
      example: 'Acme Inc.',
    }),
    settings: z
      .object({
        otpHandling: OtpHandling.default('suppress'),
        optOutHandling: OptOutHandling.default('gateway'),
      })
      .strict()
      .optional(),
  })
  .strict();
/** `POST /admin/v1/customers` body. */
export type CreateCustomerRequest = z.input<typeof CreateCustomerRequest>;

/** A customer account: the tenant every API key, message, webhook and number belongs to. */
export const Customer = component(
  'Customer',
  z.object({
    id: Uuid,
    name: z.string(),
    settings: CustomerSettings,
    createdAt: Timestamp,
  }),
  {
    description: 'A customer account.',
    example: {
      id: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
      name: 'Acme Inc.',
      settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
      createdAt: '2026-11-21T10:00:00.000Z',
    },
  },
);
/** A customer account. */
export type Customer = z.infer<typeof Customer>;

/** `:id` path parameter of the customer routes. */
export const CustomerIdParams = z.object({ id: Uuid });

/** `DELETE /admin/v1/customers/:id` answer. */
export const CustomerDeleted = z.object({ id: Uuid, deleted: z.literal(true) });
/** `DELETE /admin/v1/customers/:id` answer. */
export type CustomerDeleted = z.infer<typeof CustomerDeleted>;

/** `POST /admin/v1/customers/:id/api-keys` body. */
export const CreateApiKeyRequest = z
  .object({
    name: doc(z.string().trim().min(1).max(100).optional(), {
      description: 'A label for the key, such as where it is used; up to 100 characters.',
      example: 'production',
    }),
  })
  .strict();
/** `POST /admin/v1/customers/:id/api-keys` body. */
export type CreateApiKeyRequest = z.input<typeof CreateApiKeyRequest>;

const apiKeyShape = {
  id: Uuid,
  customerId: Uuid,
  name: z.string().nullable(),
  prefix: doc(z.string(), {
    description: 'The first characters of the key, to recognize it; not enough to use it.',
    example: 'sk_7Hq2LmXa',
  }),
  createdAt: Timestamp,
  revokedAt: doc(Timestamp.nullable(), { description: 'When the key was revoked; null if live.' }),
};

/** An API key as listed: never the plaintext. */
export const ApiKey = component('ApiKey', z.object(apiKeyShape), {
  description: 'An API key; the plaintext is never shown again after creation.',
});
/** An API key as listed. */
export type ApiKey = z.infer<typeof ApiKey>;

/** A freshly created API key: the only answer that carries the plaintext `key`. */
export const CreatedApiKey = component(
  'CreatedApiKey',
  z.object({
    ...apiKeyShape,
    key: doc(z.string(), {
      description: 'The API key. Shown once: only its SHA-256 hash is stored.',
      example: 'sk_7Hq2LmXaP0c9vTz4QeR1sW8yUb3nKd6fGj5hAo2iEl7',
    }),
  }),
  { description: 'A new API key with its plaintext, shown this one time.' },
);
/** A freshly created API key. */
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/** `:id` path parameter of `DELETE /admin/v1/api-keys/:id`. */
export const ApiKeyIdParams = z.object({ id: Uuid });

/** Channels of a number served by another instance than its own, by channel. */
export const ChannelInstances = component(
  'ChannelInstances',
  z.object({ imessage: Uuid.optional(), sms: Uuid.optional(), whatsapp: Uuid.optional() }).strict(),
  {
    description:
      'Channels of the number served by another instance than its own `instanceId`: e.g. `{"sms": "<twilio instance id>"}` sends the number’s SMS (and the iMessage → SMS fallback) through Twilio while iMessage stays on the Mac. Each instance must serve its channel; empty when none.',
    example: { sms: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e61' },
  },
);
/** Channels of a number served by another instance. */
export type ChannelInstances = z.infer<typeof ChannelInstances>;

/** `POST /admin/v1/customers/:id/numbers` body. */
export const AssignNumberRequest = z
  .object({
    phoneNumber: PhoneNumber,
    email: doc(z.string().regex(EMAIL_PATTERN, 'must be an e-mail style address').optional(), {
      description: 'E-mail style sender address served by the same instance (iMessage).',
      example: 'hello@example.com',
    }),
    instanceId: Uuid,
    channelInstances: ChannelInstances.optional(),
    isDefault: doc(z.boolean().default(false), {
      description: 'Make this the default sender when `from` is omitted (replaces the previous).',
    }),
  })
  .strict();
/** `POST /admin/v1/customers/:id/numbers` body. */
export type AssignNumberRequest = z.input<typeof AssignNumberRequest>;

/** A sender address as the operator sees it: which customer and instance it belongs to. */
export const AssignedNumber = component(
  'AssignedNumber',
  z.object({
    phoneNumber: z.string(),
    email: z.string().nullable(),
    customerId: Uuid,
    instanceId: Uuid,
    instanceName: z.string(),
    channelInstances: ChannelInstances,
    isDefault: z.boolean(),
    healthStatus: HealthStatus,
    createdAt: Timestamp,
  }),
  {
    description: 'A sender address authorized for one customer and served by one instance.',
    example: {
      phoneNumber: '+14155550100',
      email: null,
      customerId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
      instanceId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e60',
      instanceName: 'simulator',
      channelInstances: {},
      isDefault: true,
      healthStatus: 'unknown',
      createdAt: '2026-11-21T10:00:00.000Z',
    },
  },
);
/** A sender address as the operator sees it. */
export type AssignedNumber = z.infer<typeof AssignedNumber>;

/**
 * Path parameters of `DELETE /admin/v1/customers/:id/numbers/:phoneNumber`; the number is
 * accepted with or without its leading `+` (URL-encode it as `%2B`).
 */
export const CustomerNumberParams = z.object({
  id: Uuid,
  phoneNumber: z
    .string()
    .transform((value) => (value.startsWith('+') ? value : `+${value}`))
    .superRefine((value, ctx) => {
      if (!isE164(value)) {
        addCodedIssue(ctx, 'INVALID_PHONE_NUMBER', `"${value}" is not an E.164 phone number`);
      }
    }),
});

/** `DELETE /admin/v1/customers/:id/numbers/:phoneNumber` answer. */
export const NumberRemoved = z.object({ phoneNumber: z.string(), deleted: z.literal(true) });
/** `DELETE /admin/v1/customers/:id/numbers/:phoneNumber` answer. */
export type NumberRemoved = z.infer<typeof NumberRemoved>;
