import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { addCodedIssue, Channel, Uuid } from './common';
import {
  ATTACHMENTS_MAX,
  BASE64_MESSAGE,
  fileName,
  httpsUrl,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  isBase64,
  MEDIA_URLS_MAX,
  MENTIONS_MAX,
  MESSAGE_ID_PATTERN,
  MessageRecipient,
  MessageText,
  mediaUrlProblem,
  mimeTypeString,
  ScheduledAt,
  SenderAddress,
} from './message-rules';
import { MessageEffect, Metadata } from './message-values';
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

/** `POST /v1/messages` headers. */
export const SendMessageHeaders = z.object({
  'idempotency-key': doc(z.string().min(1).max(255).optional(), {
    description:
      'The IETF `Idempotency-Key` header, as Stripe-trained clients send it: the same as the body’s `idempotencyKey` (either may be used; both with different values answer 400 `VALIDATION_ERROR`). A replay answers 200 with `Idempotent-Replayed: true` and the first answer’s body.',
    example: 'order-1842-shipped',
  }),
});
