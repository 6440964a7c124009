import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { addCodedIssue, Channel, MessageId, PhoneNumber, Timestamp } from './common';
import { eventAddress } from './event-fields';

/** The states of a WhatsApp session, in the order a pairing walks through them. */
export const WHATSAPP_SESSION_STATUSES = [
  'not_enabled',
  'disconnected',
  'connecting',
  'qr_pending',
  'connected',
] as const;

/** The state of the WhatsApp session of one owned number. */
export const WhatsAppSessionStatus = component(
  'WhatsAppSessionStatus',
  z.enum(WHATSAPP_SESSION_STATUSES),
  {
    description:
      '`not_enabled` (no session), `disconnected` (credentials kept, not live), `connecting`, `qr_pending` (waiting for a QR scan or pairing code), `connected`.',
  },
);
/** A WhatsApp session state. */
export type WhatsAppSessionStatus = z.infer<typeof WhatsAppSessionStatus>;

/** The connection state of a session, as `GET …/status` answers it. */
export const WhatsAppSessionState = component(
  'WhatsAppSessionState',
  z.object({
    status: WhatsAppSessionStatus,
    jid: doc(z.string().optional(), {
      description: 'The linked account’s JID, once known.',
      example: '14155550100@s.whatsapp.net',
    }),
    lastConnectedAt: doc(Timestamp.optional(), { description: 'When the session last connected.' }),
    lastDisconnectedAt: doc(Timestamp.optional(), {
      description: 'When the session last disconnected.',
    }),
    disconnectReason: doc(z.string().optional(), {
      description:
        'Why the session last disconnected (for example `logged_out`, `connection_lost`, `disconnected_by_api`).',
    }),
  }),
  {
    description: 'Connection state of a WhatsApp session.',
    example: {
      status: 'connected',
      jid: '14155550100@s.whatsapp.net',
      lastConnectedAt: '2026-11-21T10:00:00.000Z',
    },
  },
);
/** The connection state of a session. */
export type WhatsAppSessionState = z.infer<typeof WhatsAppSessionState>;

/** The WhatsApp session of one owned number. */
export const WhatsAppSession = component(
  'WhatsAppSession',
  z.object({
    phoneNumber: doc(z.string(), {
      description: 'The owned number, E.164.',
      example: '+14155550100',
    }),
    whatsapp: WhatsAppSessionState,
  }),
  {
    description: 'The WhatsApp session of an owned number.',
    example: {
      phoneNumber: '+14155550100',
      whatsapp: {
        status: 'connected',
        jid: '14155550100@s.whatsapp.net',
        lastConnectedAt: '2026-11-21T10:00:00.000Z',
        lastDisconnectedAt: '2026-11-20T18:42:07.000Z',
        disconnectReason: 'connection_lost',
      },
    },
  },
);
/** The WhatsApp session of an owned number. */
export type WhatsAppSession = z.infer<typeof WhatsAppSession>;

/** An E.164 number whose leading `+` may be left out (it is awkward in URLs). */
const OPTIONAL_PLUS_E164_PATTERN = /^\+?\d{2,15}$/;

/** Path parameters of `/v1/whatsapp/numbers/{phoneNumber}…`; the value is normalized to E.164. */
export const WhatsAppNumberPathParams = z.object({
  phoneNumber: doc(
    z
      .string()
      .superRefine((value, ctx) => {
        if (!OPTIONAL_PLUS_E164_PATTERN.test(value)) {
          addCodedIssue(
            ctx,
            'INVALID_PHONE_NUMBER',
            `"${value}" is not an E.164 phone number (2 to 15 digits, the leading + optional)`,
          );
        }
      })
      .transform((value) => (value.startsWith('+') ? value : `+${value}`)),
    {
      description: 'An owned number, E.164 with or without the leading `+` (URL-encoded as `%2B`).',
      example: '14155550100',
    },
  ),
});
/** Path parameters of WhatsApp number routes, after normalization. */
export type WhatsAppNumberPathParams = z.infer<typeof WhatsAppNumberPathParams>;

/** `POST …/pairing-code` body (optional). */
export const PairingCodeRequest = component(
  'PairingCodeRequest',
  z
    .object({
      phoneNumber: doc(PhoneNumber.optional(), {
        description:
          'E.164 number of the phone that will enter the code, when it is not the owned number itself.',
      }),
    })
    .strict(),
  { example: { phoneNumber: '+14155550100' } },
);
/** The body of a pairing-code request. */
export type PairingCodeRequest = z.infer<typeof PairingCodeRequest>;

/** The length of a WhatsApp pairing code. */
export const PAIRING_CODE_LENGTH = 8;

/** `POST …/pairing-code` result. */
export const PairingCode = z.object({
  pairingCode: doc(
    z
      .string()
      .length(PAIRING_CODE_LENGTH)
      .regex(/^[A-Z0-9]+$/),
    {
      description:
        'Eight characters to enter in WhatsApp under Linked devices → Link with phone number.',
      example: 'K7QJ3M2P',
    },
  ),
});
/** A pairing code. */
export type PairingCode = z.infer<typeof PairingCode>;

/** `GET …/qr` result. */
export const QrCode = z.object({
  qrCode: doc(z.string().min(1), {
    description:
      'The raw QR payload, to render as a QR code; it is refreshed as the provider refreshes it.',
    example: '2@Xq1zJ0tY7mPq3r8sT2uV,hW3yK9aB4cD5eF6gH7iJ8kL9m,Zr9kQ1wE2rT3yU4iO5pA6sD7f',
  }),
});
/** A pending QR code. */
export type QrCode = z.infer<typeof QrCode>;

/** `GET …/check` query. */
export const WhatsAppCheckQuery = z.object({
  // describe() clones the shared schema, so the docs below do not leak into PhoneNumber
  phone: doc(PhoneNumber.describe('The recipient to look up, E.164.'), { example: '+14155550160' }),
});
/** The query of a recipient check. */
export type WhatsAppCheckQuery = z.infer<typeof WhatsAppCheckQuery>;

/** `GET …/check` result. */
export const WhatsAppCheckResult = z.object({
  phone: doc(z.string(), { description: 'The number looked up, E.164.', example: '+14155550160' }),
  onWhatsApp: z.boolean(),
  jid: doc(z.string().optional(), {
    description: 'The recipient’s JID, when on WhatsApp.',
    example: '14155550160@s.whatsapp.net',
  }),
});
/** The result of a recipient check. */
export type WhatsAppCheckResult = z.infer<typeof WhatsAppCheckResult>;

/** How far back `GET …/signup-codes` looks, in minutes. */
export const SIGNUP_CODES_WINDOW_MINUTES = 15;

/** One verification code received by an owned number. */
export const SignupCode = z.object({
  code: doc(z.string(), { description: 'The detected code.', example: '482913' }),
  messageId: MessageId,
  from: doc(z.string(), { description: 'Sender address.', example: '+14155550199' }),
  channel: Channel,
  receivedAt: Timestamp,
});
/** A received verification code. */
export type SignupCode = z.infer<typeof SignupCode>;

/** `GET …/signup-codes` result. */
export const SignupCodes = component(
  'SignupCodes',
  z.object({
    windowMinutes: z.literal(SIGNUP_CODES_WINDOW_MINUTES),
    codes: doc(z.array(SignupCode), { description: 'Newest first.' }),
  }),
  {
    description: 'Verification codes the number received in the last 15 minutes.',
    example: {
      windowMinutes: 15,
      codes: [
        {
          code: '482913',
          messageId: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
          from: '+14155550199',
          channel: 'whatsapp',
          receivedAt: '2026-11-21T10:00:00.000Z',
        },
      ],
    },
  },
);
/** Recent verification codes of a number. */
export type SignupCodes = z.infer<typeof SignupCodes>;

/** `DELETE /v1/whatsapp/numbers/{phoneNumber}` result. */
export const WhatsAppSessionDeleted = z.object({
  phoneNumber: doc(z.string(), {
    description: 'The owned number, E.164.',
    example: '+14155550100',
  }),
  deleted: z.literal(true),
});
/** The result of a session deletion. */
export type WhatsAppSessionDeleted = z.infer<typeof WhatsAppSessionDeleted>;

/** Data of `whatsapp.status` (event stream only). */
export const WhatsAppStatusData = component(
  'WhatsAppStatusData',
  z
    .object({
      phoneNumber: eventAddress('The owned number, E.164.', '+14155550100'),
      status: WhatsAppSessionStatus,
      qrCode: doc(z.string().optional(), { description: 'The new QR payload; when `qr_pending`.' }),
      jid: doc(z.string().optional(), { description: 'The linked JID; when `connected`.' }),
      disconnectReason: doc(z.string().optional(), {
        description: 'Why; when `disconnected`.',
      }),
      customerId: doc(z.string(), { description: 'The customer owning the number.' }),
    })
    .superRefine((data, ctx) => {
      const onlyWith = [
        ['qrCode', 'qr_pending'],
        ['jid', 'connected'],
        ['disconnectReason', 'disconnected'],
      ] as const;
      for (const [field, status] of onlyWith) {
        if (data[field] !== undefined && data.status !== status) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: [field],
            message: `${field} is only present when status is ${status}`,
          });
        }
      }
    }),
  { description: 'A WhatsApp session changed state; a new QR code also fires it.' },
);
/** Data of `whatsapp.status`. */
export type WhatsAppStatusData = z.infer<typeof WhatsAppStatusData>;
