import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { component, doc } from '../openapi-meta';
import {
  addCodedIssue,
  Channel,
  E164_PATTERN,
  EMAIL_PATTERN,
  GROUP_JID_PATTERN,
  isHttpUrl,
  MessageId,
  OUTBOUND_URL_MESSAGE,
  PageQuery,
  Pagination,
  PHONE_LIKE_PATTERN,
  Timestamp,
  Uuid,
} from './common';

// ---------------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------------

/** The longest message text (send and edit), in UTF-16 code units as JavaScript counts them. */
export const MESSAGE_TEXT_MAX_LENGTH = 10_000;
/** The most `content.mediaUrls` one send may carry. */
export const MEDIA_URLS_MAX = 20;
/** The most `attachments` one send may carry (same bound as `mediaUrls`). */
export const ATTACHMENTS_MAX = 20;
/** The most `mentions` one send may carry. */
export const MENTIONS_MAX = 100;
/** The longest `idempotencyKey`. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** The limits of a message's `metadata` object. */
export const METADATA_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxStringLength: 500 } as const;
/** The file extensions `content.mediaUrls` accepts when a URL's path has one. */
export const MEDIA_URL_IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp'] as const;

/** A `msg_<uuid>` message id. */
export const MESSAGE_ID_PATTERN =
  /^msg_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const URL_MAX_LENGTH = 2048;
const MIME_TYPE_PATTERN = /^[\w.+-]+\/[\w.+-]+$/;
// Standard alphabet, padding only at the end. A plain character class keeps the check linear on
// multi-megabyte payloads; the length rule below finishes what the class cannot express.
const BASE64_CHARS_PATTERN = /^[A-Za-z0-9+/]+={0,2}$/;
const DATETIME_WITH_OFFSET = z.string().datetime({ offset: true });

/**
 * A nullable enum whose OpenAPI `enum` lists null too: OpenAPI 3.0 validates `enum` before it
 * looks at `nullable`, so without it a null value fails against its own schema. Used instead of
 * `Component.nullable()`, whose `allOf: [$ref]` form has the same flaw.
 */
function nullableEnum<T extends [string, ...string[]]>(values: T) {
  // The converter merges arrays as a set union: this appends null to the generated enum.
  return extendApi(z.enum(values).nullable(), { enum: [...values, null] });
}

// ---------------------------------------------------------------------------------------------
// Address and value checks
// ---------------------------------------------------------------------------------------------

/** The forms a recipient address can take. */
export type RecipientKind = 'phone' | 'email' | 'group';

/**
 * Classifies a `to` address: an E.164 phone number, an e-mail style address (iMessage only) or a
 * WhatsApp group JID; null when it is none of them.
 */
export function recipientKind(value: string): RecipientKind | null {
  if (E164_PATTERN.test(value)) return 'phone';
  if (GROUP_JID_PATTERN.test(value)) return 'group';
  if (EMAIL_PATTERN.test(value)) return 'email';
  return null;
}

/** A new https URL schema (a fresh instance per field, so each can carry its own docs). */
export function httpsUrl() {
  return z.string().max(URL_MAX_LENGTH).refine(isHttpUrl, { message: OUTBOUND_URL_MESSAGE });
}

/** A new schema of a file's MIME type, such as `image/png` (a fresh instance, for its own docs). */
export function mimeTypeString() {
  return z.string().regex(MIME_TYPE_PATTERN, { message: 'must be a MIME type such as image/png' });
}

/** A new schema of a file name without a path (a fresh instance, for its own docs). */
export function fileName() {
  return z
    .string()
    .min(1)
    .max(255)
    .regex(/^[^/\\]+$/, { message: 'must be a file name without a path' });
}

/** The message of an attachment's `data` that is not standard base64. */
export const BASE64_MESSAGE =
  'must be non-empty standard base64 (RFC 4648, with padding, no data: prefix)';

/**
 * Why a media URL is refused, or null when it is fine. URLs without a file extension pass:
 * image CDNs rarely have one, and the provider checks the fetched Content-Type anyway.
 */
function mediaUrlProblem(value: string): string | null {
  if (!isHttpUrl(value)) return OUTBOUND_URL_MESSAGE;
  const lastSegment = new URL(value).pathname.split('/').pop() ?? '';
  const dot = lastSegment.lastIndexOf('.');
  if (dot <= 0) return null;
  const extension = lastSegment.slice(dot + 1).toLowerCase();
  if ((MEDIA_URL_IMAGE_EXTENSIONS as readonly string[]).includes(extension)) return null;
  return `points to a .${extension} file; content.mediaUrls takes images (${MEDIA_URL_IMAGE_EXTENSIONS.join(', ')}): send other files as attachments`;
}

/** True when the value is standard base64 (RFC 4648 section 4) with padding. */
export function isBase64(value: string): boolean {
  return value.length % 4 === 0 && BASE64_CHARS_PATTERN.test(value);
}

/** Answers a phone-like value that is not E.164 with `INVALID_PHONE_NUMBER`. */
function addNotE164Issue(ctx: z.RefinementCtx): void {
  addCodedIssue(ctx, 'INVALID_PHONE_NUMBER', 'is not an E.164 phone number (+ and 2 to 15 digits)');
}

/**
 * A send's `to`: E.164, e-mail style or `<id>@g.us`. A phone-like value that is not E.164
 * answers `INVALID_PHONE_NUMBER`; anything else unrecognised answers `INVALID_RECIPIENT`.
 */
export const MessageRecipient = z.string().superRefine((value, ctx) => {
  if (recipientKind(value) !== null) return;
  if (PHONE_LIKE_PATTERN.test(value)) {
    addNotE164Issue(ctx);
  } else {
    addCodedIssue(
      ctx,
      'INVALID_RECIPIENT',
      'must be an E.164 phone number, an e-mail style address or a WhatsApp group JID (<id>@g.us)',
    );
  }
});

/** A further address form {@link phoneOrEmailCheck} admits. */
export interface ExtraAddressForm {
  /** The form's pattern. */
  pattern: RegExp;
  /** How the error message names it, such as `an <id>@lid handle`. */
  name: string;
}

/**
 * A refinement admitting an E.164 phone number, an e-mail style address and, when given, one
 * further form. A phone-like value that is not E.164 answers `INVALID_PHONE_NUMBER`.
 */
export function phoneOrEmailCheck(extra?: ExtraAddressForm) {
  const expected = extra
    ? `must be an E.164 phone number, an e-mail style address or ${extra.name}`
    : 'must be an E.164 phone number or an e-mail style address';
  return (value: string, ctx: z.RefinementCtx): void => {
    if (E164_PATTERN.test(value) || EMAIL_PATTERN.test(value)) return;
    if (extra?.pattern.test(value)) return;
    if (PHONE_LIKE_PATTERN.test(value)) {
      addNotE164Issue(ctx);
    } else {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: expected });
    }
  };
}

/** A send's `from`: an E.164 phone number or an e-mail style address. */
export const SenderAddress = z.string().superRefine(phoneOrEmailCheck());

/** Message text: at most 10,000 characters. */
export const MessageText = z.string().max(MESSAGE_TEXT_MAX_LENGTH, {
  message: `must be at most ${MESSAGE_TEXT_MAX_LENGTH} characters`,
});

/**
 * `scheduledAt`: an ISO 8601 datetime with a UTC offset, else `INVALID_SCHEDULED_AT`. Past and
 * too-far values are the server's to judge: they depend on its clock.
 */
const ScheduledAt = z.string().superRefine((value, ctx) => {
  if (!DATETIME_WITH_OFFSET.safeParse(value).success) {
    addCodedIssue(
      ctx,
      'INVALID_SCHEDULED_AT',
      'must be an ISO 8601 datetime with a UTC offset, such as 2026-11-21T10:00:00Z',
    );
  }
});

// ---------------------------------------------------------------------------------------------
// Shared enums and values
// ---------------------------------------------------------------------------------------------

/** The status values of a message: the spec's eight plus `cancelled`. */
export const MESSAGE_STATUSES = [
  'queued',
  'pending',
  'scheduled',
  'sent',
  'delivered',
  'read',
  'failed',
  'unsent',
  'cancelled',
] as const;

/** Lifecycle status of a message. */
export const MessageStatus = component('MessageStatus', z.enum(MESSAGE_STATUSES), {
  description:
    'Lifecycle status. Moves forward only: scheduled → queued → pending → sent → delivered → read; `failed` from queued, pending or sent; `unsent` from sent, delivered or read; `cancelled` from scheduled.',
});
/** A message status. */
export type MessageStatus = z.infer<typeof MessageStatus>;

/** The iMessage effects: five screen effects and six bubble effects. */
export const MESSAGE_EFFECTS = [
  'fireworks',
  'balloons',
  'confetti',
  'lasers',
  'spotlight',
  'slam',
  'loud',
  'gentle',
  'invisibleInk',
  'echo',
  'love',
] as const;

/** An iMessage effect. */
export const MessageEffect = component('MessageEffect', z.enum(MESSAGE_EFFECTS), {
  description:
    'iMessage effect. Screen: `fireworks`, `balloons`, `confetti`, `lasers`, `spotlight`. Bubble: `slam`, `loud`, `gentle`, `invisibleInk`, `echo`, `love`. Ignored when the message falls back to sms, dropped on whatsapp.',
});
/** An iMessage effect. */
export type MessageEffect = z.infer<typeof MessageEffect>;

/** The six tapbacks (iMessage reactions; on whatsapp they map to {@link WHATSAPP_TAPBACK_EMOJI}). */
export const TAPBACK_TYPES = ['love', 'like', 'dislike', 'laugh', 'emphasize', 'question'] as const;
/** A tapback. */
export type TapbackType = (typeof TAPBACK_TYPES)[number];

/** A tapback type or its negative (removing) form. */
export type KnownReactionType = TapbackType | `-${TapbackType}`;
/** The tapback types and their negative (removing) forms. */
export const KNOWN_REACTION_TYPES: readonly KnownReactionType[] = [
  ...TAPBACK_TYPES,
  ...TAPBACK_TYPES.map((type) => `-${type}` as const),
];

/** The emoji each tapback maps to on whatsapp (the spec's table). */
export const WHATSAPP_TAPBACK_EMOJI: Readonly<Record<TapbackType, string>> = {
  love: '❤️',
  like: '👍',
  dislike: '👎',
  laugh: '😂',
  emphasize: '‼️',
  question: '❓',
};

// The lists in the ReactionType description, written from the constants above.
const TAPBACK_LIST = TAPBACK_TYPES.map((type) => `\`${type}\``).join(', ');
const WHATSAPP_EMOJI_LIST = TAPBACK_TYPES.map(
  (type) => `${type} ${WHATSAPP_TAPBACK_EMOJI[type]}`,
).join(', ');

/**
 * A reaction type: one of {@link KNOWN_REACTION_TYPES}, or on whatsapp any other string (an
 * emoji), passed through verbatim. Which values a channel accepts is checked by the server once the
 * target message's channel is known.
 */
export const ReactionType = component(
  'ReactionType',
  z
    .string()
    .min(1)
    .max(64)
    // The predicate is a real check (no blank reactions) and narrows the type so that editors
    // suggest the known values while any string still fits.
    .refine((value): value is KnownReactionType | (string & {}) => value.trim().length > 0, {
      message: 'must not be blank',
    }),
  {
    description: `Tapback: ${TAPBACK_LIST}, or the negative form (\`-love\`, …) to remove one added through the API. imessage accepts only these twelve values. On whatsapp they map to emoji (${WHATSAPP_EMOJI_LIST}) and any other string, such as an emoji, is passed through verbatim.`,
    example: 'love',
  },
);
/** A reaction type. */
export type ReactionType = z.infer<typeof ReactionType>;

/**
 * Removes the `nullable` flag the converter puts on every schema that accepts null: OpenAPI 3.0
 * forbids `nullable` without a `type`, which a union has none of. An `undefined` override deletes
 * the flag in the converter's merge; the option type does not admit it, hence the cast.
 */
const WITHOUT_NULLABLE_FLAG = { nullable: undefined } as unknown as Parameters<typeof extendApi>[1];

/**
 * A custom metadata value: a short string, a number, a boolean or null. Null rides on the string
 * member, which has a type for OpenAPI 3.0's `nullable` to sit beside.
 */
const MetadataValue = extendApi(
  z.union([
    z
      .string()
      .max(METADATA_LIMITS.maxStringLength, {
        message: `must be at most ${METADATA_LIMITS.maxStringLength} characters`,
      })
      .nullable(),
    z.number(),
    z.boolean(),
  ]),
  WITHOUT_NULLABLE_FLAG,
);

/** A new metadata schema (a fresh instance per use: the component and the nullable copy). */
function metadataSchema() {
  return z.record(z.string(), MetadataValue).superRefine((metadata, ctx) => {
    const keys = Object.keys(metadata);
    if (keys.length > METADATA_LIMITS.maxKeys) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `must have at most ${METADATA_LIMITS.maxKeys} keys (got ${keys.length})`,
      });
    }
    for (const key of keys) {
      if (key.length === 0 || key.length > METADATA_LIMITS.maxKeyLength) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [key],
          message: `key must be 1 to ${METADATA_LIMITS.maxKeyLength} characters`,
        });
      }
    }
  });
}

/** The caller's custom key-value data on a message. */
export const Metadata = component('Metadata', metadataSchema(), {
  description: `Your own key-value data, echoed on the message and its events: at most ${METADATA_LIMITS.maxKeys} keys of 1 to ${METADATA_LIMITS.maxKeyLength} characters; each value a string of at most ${METADATA_LIMITS.maxStringLength} characters, a number, a boolean or null.`,
  example: { orderId: 'ord_1842', attempt: 2, vip: true },
});
/** Custom key-value data. */
export type Metadata = z.infer<typeof Metadata>;

// ---------------------------------------------------------------------------------------------
// The send request
// ---------------------------------------------------------------------------------------------

/** One file of a send (request side). */
export const Attachment = component(
  'Attachment',
  z
    .object({
      type: doc(z.enum(['url', 'base64']).optional(), {
        description:
          'How the bytes are given: `url` (fetched from `url`) or `base64` (inline `data`). Inferred from whichever of `url` and `data` is present when omitted.',
      }),
      url: doc(httpsUrl().optional(), {
        format: 'uri',
        description: 'HTTPS URL of the file, for type `url`.',
        example: 'https://cdn.example.com/files/invoice-1842.pdf',
      }),
      data: doc(z.string().optional(), {
        format: 'byte',
        description:
          'The file as standard base64 (RFC 4648, with padding, no `data:` prefix), for type `base64`.',
      }),
      mimeType: doc(mimeTypeString().optional(), {
        description:
          'MIME type of the file; inferred from the filename or the bytes when omitted (`application/octet-stream` as a last resort).',
        example: 'application/pdf',
      }),
      filename: doc(fileName().optional(), {
        description: 'File name shown to the recipient.',
        example: 'invoice-1842.pdf',
      }),
      isAudioMessage: doc(z.boolean().optional(), {
        description:
          'Deliver an audio file as a voice memo (imessage, whatsapp); requires empty `content.text`. Without it audio arrives as a plain file.',
      }),
    })
    .strict()
    .superRefine((item, ctx) => {
      const type =
        item.type ??
        (item.url !== undefined ? 'url' : item.data !== undefined ? 'base64' : undefined);
      if (type === undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: 'needs `url` (type url) or `data` (type base64)',
        });
        return;
      }
      const [needed, forbidden] =
        type === 'url' ? (['url', 'data'] as const) : (['data', 'url'] as const);
      if (item[needed] === undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [needed],
          message: `is required when type is ${type}`,
        });
      }
      if (item[forbidden] !== undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [forbidden],
          message: `is not allowed when type is ${type}`,
        });
      }
      if (type === 'base64' && item.data !== undefined && !isBase64(item.data)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['data'], message: BASE64_MESSAGE });
      }
      if (
        item.isAudioMessage === true &&
        item.mimeType !== undefined &&
        !item.mimeType.startsWith('audio/')
      ) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['mimeType'],
          message: 'must be an audio/* type when isAudioMessage is true',
        });
      }
    }),
  {
    description:
      'A file to send: any MIME type, by HTTPS URL or inline base64. On imessage 2+ attachments arrive as one gallery after the text; on sms each is a separate MMS.',
    example: {
      type: 'url',
      url: 'https://cdn.example.com/files/invoice-1842.pdf',
      mimeType: 'application/pdf',
      filename: 'invoice-1842.pdf',
    },
  },
);
/** One file of a send. */
export type Attachment = z.infer<typeof Attachment>;

/** An @-mention inside the text of a WhatsApp group send. */
export const Mention = component(
  'Mention',
  z
    .object({
      address: doc(z.string().min(1).max(320), {
        description: 'Address of the mentioned participant (its E.164 phone number).',
        example: '+14155550161',
      }),
      start: doc(z.number().int().min(0), {
        description: 'Offset of the mention in `content.text`, in UTF-16 code units.',
        example: 0,
      }),
      length: doc(z.number().int().min(1), {
        description: 'Length of the mention in `content.text`, in UTF-16 code units.',
        example: 4,
      }),
    })
    .strict(),
  {
    description:
      'A mention of a group participant, marking a span of `content.text`. Honoured on whatsapp group sends, silently dropped elsewhere.',
  },
);
/** An @-mention. */
export type Mention = z.infer<typeof Mention>;

/** Channel order and fallback of a send. */
export const Routing = component(
  'Routing',
  z
    .object({
      preference: doc(
        z
          .array(Channel)
          .min(1)
          .superRefine((channels, ctx) => {
            channels.forEach((channel, index) => {
              if (channels.indexOf(channel) !== index) {
                ctx.addIssue({
                  code: z.ZodIssueCode.custom,
                  path: [index],
                  message: `"${channel}" is listed twice`,
                });
              }
            });
          })
          .default(['imessage', 'sms']),
        {
          description: 'Channels to try, in order, each at most once.',
          example: ['imessage', 'sms'],
        },
      ),
      fallback: doc(z.boolean().default(true), {
        description:
          'Try the next channel of `preference` when one cannot reach the recipient or fails.',
      }),
    })
    .strict(),
  {
    description:
      'Channel order and fallback. Ignored on chat-keyed sends, whose channel is pinned to the chat.',
  },
);
/** Channel order and fallback of a send. */
export type Routing = z.infer<typeof Routing>;

/** The content block of a send. */
const SendContent = z
  .object({
    text: doc(MessageText.optional(), {
      description:
        'Message text, up to 10,000 characters. May be omitted or empty when media is present.',
      example: 'Your order #1842 has shipped 📦',
    }),
    mediaUrls: doc(
      z
        .array(
          doc(
            z.string().superRefine((value, ctx) => {
              const problem = mediaUrlProblem(value);
              if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
            }),
            { format: 'uri' },
          ),
        )
        .min(1)
        .max(MEDIA_URLS_MAX),
      {
        description:
          '1 to 20 HTTPS image URLs (jpg, jpeg, png, gif, webp; URLs without an extension are accepted). 2+ are sent as one carousel. Cannot be combined with `attachments`.',
        example: ['https://cdn.example.com/img/parcel.jpg'],
      },
    ).optional(),
  })
  .strict();

/**
 * Cross-field rules of a send: the recipient (exactly one of `to` and `chatId`), content, and
 * the combinations the spec forbids.
 */
function checkSendRules(body: SendBody, ctx: z.RefinementCtx): void {
  // Recipient: exactly one of `to` and the chat id (under either of its names).
  if (
    body.chatId !== undefined &&
    body.conversationId !== undefined &&
    body.chatId !== body.conversationId
  ) {
    addCodedIssue(
      ctx,
      'INVALID_REQUEST',
      'must equal chatId when both are given (it is an alias)',
      ['conversationId'],
    );
  }
  const chatKeyed = body.chatId !== undefined || body.conversationId !== undefined;
  if (body.to !== undefined && chatKeyed) {
    addCodedIssue(
      ctx,
      'INVALID_REQUEST',
      'give either `to` or `chatId`/`conversationId`, not both',
    );
  } else if (body.to === undefined && !chatKeyed) {
    addCodedIssue(ctx, 'INVALID_REQUEST', 'one of `to` and `chatId`/`conversationId` is required');
  }

  // Content: something to deliver, and not both kinds of media.
  const text = body.content?.text ?? '';
  const hasText = text.trim().length > 0;
  const mediaUrls = body.content?.mediaUrls;
  const { attachments } = body;
  if (!hasText && mediaUrls === undefined && attachments === undefined) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['content', 'text'],
      message: 'must not be empty unless content.mediaUrls or attachments are given',
    });
  }
  if (mediaUrls !== undefined && attachments !== undefined) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['attachments'],
      message:
        'cannot be combined with content.mediaUrls (attachments take the imessage path, mediaUrls the sms path): use one of them',
    });
  }
  if (hasText && attachments?.some((item) => item.isAudioMessage === true)) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['content', 'text'],
      message: 'must be empty when an attachment is a voice memo (isAudioMessage: true)',
    });
  }
  if (body.messageType === 'carousel' && (mediaUrls?.length ?? 0) < 2) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['messageType'],
      message: 'carousel needs at least 2 content.mediaUrls',
    });
  }
  body.mentions?.forEach((mention, index) => {
    if (mention.start + mention.length > text.length) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['mentions', index],
        message: 'must lie within content.text',
      });
    }
  });
}

const sendBodyShape = {
  to: doc(MessageRecipient.optional(), {
    description:
      'Recipient: E.164 phone number, e-mail style address (imessage) or WhatsApp group JID `<id>@g.us`. Exactly one of `to` and `chatId` is required.',
    example: '+14155550100',
  }),
  chatId: doc(Uuid.optional(), {
    description:
      'The `conversationId` of a chat, to send into it; channel and sender are pinned to the chat. Exclusive with `to`.',
  }),
  conversationId: doc(Uuid.optional(), {
    description: 'Alias of `chatId`; both with different values gives `INVALID_REQUEST`.',
  }),
  from: doc(SenderAddress.optional(), {
    description:
      "Sender address, one of the customer's authorized addresses (see `GET /v1/numbers`); the default address when omitted.",
    example: '+14155550199',
  }),
  content: doc(SendContent.optional(), {
    description: 'What to send: text, image URLs, or both (the text becomes the caption).',
  }),
  routing: Routing.optional(),
  replyTo: doc(
    z
      .string()
      .regex(MESSAGE_ID_PATTERN, { message: 'must be a message id (msg_<uuid>)' })
      .optional(),
    {
      description: 'Id of the message to reply to (threaded reply on imessage, quote on whatsapp).',
      example: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
    },
  ),
  attachments: doc(z.array(Attachment).min(1).max(ATTACHMENTS_MAX).optional(), {
    description: '1 to 20 files. Cannot be combined with `content.mediaUrls`.',
  }),
  effect: MessageEffect.optional(),
  messageType: doc(z.enum(['carousel']).optional(), {
    description: 'Send 2+ `content.mediaUrls` as one carousel bubble; dropped on whatsapp.',
  }),
  mentions: doc(z.array(Mention).min(1).max(MENTIONS_MAX).optional(), {
    description: 'Mentions inside `content.text`; honoured on whatsapp group sends only.',
  }),
  scheduledAt: doc(ScheduledAt.optional(), {
    format: 'date-time',
    description:
      'Deliver later: ISO 8601 datetime with a UTC offset, in the future and at most 30 days ahead (one-minute granularity). The response status is then `scheduled`.',
    example: '2026-11-22T09:00:00Z',
  }),
  idempotencyKey: doc(z.string().min(1).max(IDEMPOTENCY_KEY_MAX_LENGTH).optional(), {
    description:
      'Up to 255 characters. A later send with the same key answers 200 with the message the first one created, whatever its body.',
    example: 'order-1842-shipped',
  }),
  callbackUrl: doc(httpsUrl().optional(), {
    format: 'uri',
    description: "HTTPS URL that receives this message's lifecycle events, besides your webhooks.",
    example: 'https://example.com/hooks/order-1842',
  }),
  metadata: Metadata.optional(),
  createContact: doc(z.boolean().optional(), {
    description:
      'Save the recipient as a contact on the sending instance where the provider can. Ignored on chat-keyed sends.',
  }),
};
const SendBody = z.object(sendBodyShape).strict();
type SendBody = z.infer<typeof SendBody>;

/** `POST /v1/messages` body. */
export const SendMessageRequest = component(
  'SendMessageRequest',
  SendBody.superRefine(checkSendRules),
  {
    description:
      'A message to send to `to`, or into the chat `chatId`. Needs non-empty `content.text`, `content.mediaUrls` or `attachments`.',
    example: {
      to: '+14155550100',
      content: { text: 'Your order #1842 has shipped 📦' },
      routing: { preference: ['imessage', 'sms'], fallback: true },
      effect: 'confetti',
      idempotencyKey: 'order-1842-shipped',
      metadata: { orderId: 'ord_1842' },
    },
  },
);
/** The body of a send, as the server sees it after parsing (defaults applied). */
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;
/** The body of a send, as the caller writes it. */
export type SendMessageInput = z.input<typeof SendMessageRequest>;

// ---------------------------------------------------------------------------------------------
// The message resource
// ---------------------------------------------------------------------------------------------

/** One step of a message's lifecycle. */
export const TimelineEntry = component(
  'TimelineEntry',
  z.object({
    status: MessageStatus,
    at: Timestamp,
    channel: nullableEnum(Channel.options),
  }),
  {
    description: 'A status the message reached, when, and on which channel (null before routing).',
    example: { status: 'sent', at: '2026-11-21T10:00:01.120Z', channel: 'imessage' },
  },
);
/** One step of a message's lifecycle. */
export type TimelineEntry = z.infer<typeof TimelineEntry>;

/** A file of a stored message: metadata only, never the bytes. */
export const MessageAttachment = component(
  'MessageAttachment',
  z.object({
    mimeType: doc(z.string().nullable(), { example: 'application/pdf' }),
    filename: doc(z.string().nullable(), { example: 'invoice-1842.pdf' }),
    totalBytes: doc(z.number().int().min(0).nullable(), {
      description: 'Size in bytes; null while unknown (a URL not fetched yet).',
      example: 48213,
    }),
    isAudioMessage: z.boolean(),
    url: doc(z.string().nullable(), {
      description: 'Source URL of a `url` attachment; null for uploaded or received bytes.',
    }),
    downloadUrl: doc(z.string().nullable(), {
      description:
        'Pre-signed download URL (valid 1 hour, no API key) when Switchboard stores the bytes; null otherwise.',
    }),
  }),
  { description: 'A file of a stored message (metadata only; base64 data is never echoed).' },
);
/** A file of a stored message. */
export type MessageAttachment = z.infer<typeof MessageAttachment>;

/** A message, outbound or inbound. */
export const Message = component(
  'Message',
  z.object({
    id: MessageId,
    direction: doc(z.enum(['outbound', 'inbound']), {
      description: '`outbound` for sends, `inbound` for messages received by your numbers.',
    }),
    status: MessageStatus,
    to: doc(z.string().optional(), {
      description:
        'Recipient (outbound) or receiving address (inbound). Absent on chat-keyed sends, which carry `conversationId` instead.',
      example: '+14155550100',
    }),
    conversationId: doc(Uuid.optional(), { description: 'The chat of a chat-keyed send.' }),
    from: doc(z.string(), { description: 'Sender address.', example: '+14155550199' }),
    channel: doc(nullableEnum(Channel.options), {
      description: 'Delivery channel; null until routing picked one.',
    }),
    content: z.object({
      text: doc(z.string(), { description: 'Text; empty for media-only messages.' }),
      mediaUrls: z.array(z.string()).optional(),
    }),
    attachments: z.array(MessageAttachment),
    timeline: z.array(TimelineEntry),
    fallbackTriggered: doc(z.boolean(), {
      description:
        'True when the message went out on a channel other than the first preferred one.',
    }),
    // An inline copy rather than `Metadata.nullable()`: see nullableEnum for why a nullable
    // reference would refuse null in OpenAPI 3.0.
    metadata: doc(metadataSchema().nullable(), {
      description: 'Your key-value data from the send; null when none was given.',
    }),
    externalId: doc(z.string().nullable(), {
      description: 'Provider-assigned id; a retry issues a new one while `id` stays the same.',
    }),
    errorCode: doc(z.string().nullable(), {
      description: 'Why the message failed; null otherwise.',
    }),
    errorMessage: doc(z.string().nullable(), { description: 'Human-readable failure reason.' }),
    retryCount: doc(z.number().int().min(0), { description: 'How many times it was retried.' }),
    scheduledAt: doc(z.string().nullable(), {
      format: 'date-time',
      description: 'When a scheduled send is (or was) due; null for immediate sends.',
    }),
    replyTo: doc(z.string().nullable(), { description: 'Id of the message this one replies to.' }),
    effect: doc(nullableEnum(MessageEffect.options), {
      description: 'The iMessage effect requested, if any.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
  {
    description:
      'A message and its delivery lifecycle. `channel` is null until routing picked one; `timeline` lists every status reached.',
    example: {
      id: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
      direction: 'outbound',
      status: 'delivered',
      to: '+14155550100',
      from: '+14155550199',
      channel: 'imessage',
      content: { text: 'Your order #1842 has shipped 📦' },
      attachments: [],
      timeline: [
        { status: 'queued', at: '2026-11-21T10:00:00.000Z', channel: null },
        { status: 'sent', at: '2026-11-21T10:00:01.120Z', channel: 'imessage' },
        { status: 'delivered', at: '2026-11-21T10:00:01.640Z', channel: 'imessage' },
      ],
      fallbackTriggered: false,
      metadata: { orderId: 'ord_1842' },
      externalId: 'p:0/4C3E5B1A-2F6D-4E8A-9B7C-1D2E3F4A5B6C',
      errorCode: null,
      errorMessage: null,
      retryCount: 0,
      scheduledAt: null,
      replyTo: null,
      effect: 'confetti',
      createdAt: '2026-11-21T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:01.640Z',
    },
  },
);
/** A message. */
export type Message = z.infer<typeof Message>;

// ---------------------------------------------------------------------------------------------
// Operation results and other requests
// ---------------------------------------------------------------------------------------------

/** The 202 answer of a send. */
export const SendMessageResult = component(
  'SendMessageResult',
  z.object({
    id: MessageId,
    status: doc(z.enum(['queued', 'scheduled']), {
      description: '`scheduled` when `scheduledAt` was given, else `queued`.',
    }),
    to: doc(z.string().optional(), { description: 'Recipient; absent on chat-keyed sends.' }),
    conversationId: doc(Uuid.optional(), { description: 'The chat, on chat-keyed sends.' }),
    from: doc(z.string(), { description: 'Sender address used.' }),
    createdAt: Timestamp,
  }),
  {
    description: 'The accepted message; follow it with `GET /v1/messages/{id}` or the events.',
    example: {
      id: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
      status: 'queued',
      to: '+14155550100',
      from: '+14155550199',
      createdAt: '2026-11-21T10:00:00.000Z',
    },
  },
);
/** The 202 answer of a send. */
export type SendMessageResult = z.infer<typeof SendMessageResult>;

/** A page of messages. */
export const MessageList = component(
  'MessageList',
  z.object({ messages: z.array(Message), pagination: Pagination }),
  { description: 'A page of messages, newest first.' },
);
/** A page of messages. */
export type MessageList = z.infer<typeof MessageList>;

/** `GET /v1/messages` query. */
export const ListMessagesQuery = PageQuery.extend({
  // A fresh enum rather than the MessageStatus component: parameters lose their description in
  // the generator, and a component must always generate the same schema.
  status: doc(z.enum(MESSAGE_STATUSES).optional(), {
    description: 'Only messages in this status.',
    example: 'failed',
  }),
  to: doc(MessageRecipient.optional(), {
    description: 'Only messages with this recipient (E.164, e-mail style address or group JID).',
    example: '+14155550100',
  }),
}).strict();
/** `GET /v1/messages` query. */
export type ListMessagesQuery = z.infer<typeof ListMessagesQuery>;

/** `GET /v1/messages/scheduled` query. */
export const ListScheduledMessagesQuery = PageQuery.strict();
/** `GET /v1/messages/scheduled` query. */
export type ListScheduledMessagesQuery = z.infer<typeof ListScheduledMessagesQuery>;

/** The `:id` path parameter of the message routes. */
export const MessagePathParams = z.object({
  id: doc(z.string().min(1), {
    description: 'Message id (`msg_…`); for inbound messages the `messageId` of the event.',
    example: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
  }),
});
/** The `:id` path parameter of the message routes. */
export type MessagePathParams = z.infer<typeof MessagePathParams>;

/** The 202 answer of a retry. */
export const RetryResult = component(
  'RetryResult',
  z.object({
    id: MessageId,
    status: z.literal('queued'),
    retryCount: doc(z.number().int().min(1), { description: 'Retries so far, this one included.' }),
  }),
  {
    description: 'The message, queued again with the same id and a new provider id.',
    example: { id: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e', status: 'queued', retryCount: 1 },
  },
);
/** The 202 answer of a retry. */
export type RetryResult = z.infer<typeof RetryResult>;

/** `PUT /v1/messages/:id` body. */
export const EditMessageRequest = component(
  'EditMessageRequest',
  z
    .object({
      text: doc(
        MessageText.refine((value) => value.trim().length > 0, { message: 'must not be empty' }),
        {
          description: 'The new text, 1 to 10,000 characters.',
          example: 'Your order #1842 ships tomorrow',
        },
      ),
      backwardsCompatibilityMessage: doc(MessageText.optional(), {
        description: 'Text shown instead on devices too old to display edits.',
        example: 'Correction: your order #1842 ships tomorrow',
      }),
    })
    .strict(),
  {
    description: 'New text for a sent iMessage.',
    example: { text: 'Your order #1842 ships tomorrow' },
  },
);
/** `PUT /v1/messages/:id` body. */
export type EditMessageRequest = z.infer<typeof EditMessageRequest>;

/** `POST /v1/messages/:id/reactions` body. */
export const ReactionRequest = component(
  'ReactionRequest',
  z.object({ type: ReactionType }).strict(),
  { description: 'A tapback to add, or (negative form) remove.', example: { type: 'love' } },
);
/** `POST /v1/messages/:id/reactions` body. */
export type ReactionRequest = z.infer<typeof ReactionRequest>;

/** The answer of a reaction. */
export const ReactionResult = component(
  'ReactionResult',
  z.object({ messageId: MessageId, reaction: ReactionType }),
  {
    description: 'The reaction applied to the message.',
    example: { messageId: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e', reaction: 'love' },
  },
);
/** The answer of a reaction. */
export type ReactionResult = z.infer<typeof ReactionResult>;

/** The answer of a soft delete. */
export const DeleteResult = component(
  'DeleteResult',
  z.object({ id: MessageId, deleted: z.literal(true) }),
  {
    description: 'The message is deleted: gone from get and list.',
    example: { id: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e', deleted: true },
  },
);
/** The answer of a soft delete. */
export type DeleteResult = z.infer<typeof DeleteResult>;

// ---------------------------------------------------------------------------------------------
// Attachment download (the pre-signed URLs of stored attachments)
// ---------------------------------------------------------------------------------------------

/** `GET /v1/attachments/:id` path parameters. */
export const AttachmentPathParams = z.object({
  id: doc(z.string().min(1), {
    description: 'Id of the stored attachment, as it appears in a `downloadUrl`.',
    example: 'att_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
  }),
});
/** `GET /v1/attachments/:id` path parameters. */
export type AttachmentPathParams = z.infer<typeof AttachmentPathParams>;

/** `GET /v1/attachments/:id` query: the signature of a pre-signed URL. */
export const AttachmentDownloadQuery = z.object({
  expires: doc(z.coerce.number().int().min(1), {
    description: 'Unix time (seconds) after which the URL stops working.',
    example: 1795258800,
  }),
  signature: doc(
    z.string().regex(/^[0-9a-f]{64}$/, { message: 'must be 64 lowercase hex characters' }),
    {
      description: 'Lowercase hex HMAC-SHA256 of the attachment id and `expires`.',
      example: '5d41402abc4b2a76b9719d911017c592e1b2f0c3a4d5e6f708192a3b4c5d6e7f',
    },
  ),
});
/** `GET /v1/attachments/:id` query. */
export type AttachmentDownloadQuery = z.infer<typeof AttachmentDownloadQuery>;
