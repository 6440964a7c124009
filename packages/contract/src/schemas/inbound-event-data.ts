import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { ChatChannel } from './chat';
import { Channel, MessageId } from './common';
import { eventAddress } from './event-fields';
import { AttachmentRendition } from './media';
import { ConversationFragment } from './message-event-data';
import { TAPBACK_TYPES } from './tapbacks';

/** A file of an inbound message. */
export const InboundAttachment = component(
  'InboundAttachment',
  z
    .object({
      guid: doc(z.string().optional(), { description: 'Provider GUID; imessage only.' }),
      mimeType: doc(z.string(), { example: 'image/jpeg' }),
      filename: doc(z.string().optional(), { description: 'When the sender supplied one.' }),
      totalBytes: doc(z.number().int().nonnegative(), { description: 'Size in bytes.' }),
      downloadUrl: doc(z.string().url().optional(), {
        description: 'Pre-signed URL, valid one hour, no API key needed; absent when `note` is.',
      }),
      note: doc(z.string().optional(), {
        description: 'Why the bytes are not available (they could not be stored).',
      }),
      renditions: doc(z.array(AttachmentRendition).optional(), {
        description:
          'Browser-playable copies of a voice note or video (`INBOUND_MEDIA_RENDITIONS=true`).',
      }),
    })
    .superRefine((attachment, ctx) => {
      if ((attachment.downloadUrl === undefined) === (attachment.note === undefined)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['downloadUrl'],
          message: 'exactly one of downloadUrl and note must be present',
        });
      }
    }),
  {
    description: 'A file received with an inbound message; the same shape on every channel.',
    example: {
      mimeType: 'image/jpeg',
      filename: 'IMG_0412.jpg',
      totalBytes: 184213,
      downloadUrl:
        'https://switchboard.example.com/v1/attachments/att_0193a8f4-1b2c-7d3e-8f4a-5b6c7d8e9f0a?expires=1795255512&signature=5d41402abc4b2a76b9719d911017c592',
    },
  },
);
/** A file of an inbound message. */
export type InboundAttachment = z.infer<typeof InboundAttachment>;

/**
 * The services a verification code can be attributed to; `bank` covers any bank or card issuer,
 * `generic` a code whose sender names no known service. Clients must treat a value they do not
 * know like `generic`: the list grows.
 */
export const OTP_PROVIDERS = [
  'whatsapp',
  'google',
  'apple',
  'microsoft',
  'facebook',
  'instagram',
  'telegram',
  'signal',
  'amazon',
  'uber',
  'paypal',
  'twitter',
  'tiktok',
  'discord',
  'linkedin',
  'snapchat',
  'bank',
  'generic',
] as const;
/** The service that issued a verification code. */
export type OtpProvider = (typeof OTP_PROVIDERS)[number];

/** A verification code detected in an inbound message. */
export const OtpDetection = component(
  'OtpDetection',
  z.object({
    code: doc(z.string().min(1), {
      description: 'The code, without separators.',
      example: '482913',
    }),
    provider: doc(z.enum(OTP_PROVIDERS), {
      description:
        'Who sent it: a known service, `bank` for financial institutions, `generic` otherwise. Treat unknown values like `generic`: the list grows.',
    }),
  }),
  {
    description:
      'Present only for customers whose `otpHandling` is `annotate`; by default such messages are suppressed.',
  },
);
/** A detected verification code. */
export type OtpDetection = z.infer<typeof OtpDetection>;

/** Data of `message.inbound`. */
export const MessageInboundData = component(
  'MessageInboundData',
  z.object({
    messageId: MessageId,
    externalMessageId: doc(z.string().nullable(), {
      description: 'Provider id of the message (what reactions name as `targetExternalId`).',
    }),
    from: eventAddress('Sender: E.164 phone or e-mail style address.', '+14155550123'),
    to: eventAddress('Receiving address (identifies the receiving instance).', '+14155550100'),
    text: doc(z.string(), { description: 'Message text; empty when the message is media only.' }),
    channel: Channel,
    attachments: doc(z.array(InboundAttachment), { description: 'Empty when there are none.' }),
    conversation: ConversationFragment.optional(),
    otp: OtpDetection.optional(),
  }),
  {
    description:
      'A message received by one of your addresses. `conversation` is present when it arrived in a group chat.',
  },
);
/** Data of `message.inbound`. */
export type MessageInboundData = z.infer<typeof MessageInboundData>;

/** The reaction types a contact's reaction can have. */
export const INBOUND_REACTION_TYPES = [...TAPBACK_TYPES, 'emoji', 'remove'] as const;

/** Data of `message.reaction`. */
export const MessageReactionData = component(
  'MessageReactionData',
  z.object({
    reaction: z
      .object({
        type: z.enum(INBOUND_REACTION_TYPES),
        emoji: doc(z.string().optional(), { description: 'Only when `type` is `emoji`.' }),
        targetMessageId: doc(MessageId.nullable(), {
          description: 'Internal id of the message reacted to; null when it is unknown.',
        }),
        targetExternalId: doc(z.string(), { description: 'Provider GUID of the target.' }),
        content: doc(z.string().nullable(), {
          description: 'Human-readable description; null for emoji reactions.',
          example: 'Loved “see you at 6”',
        }),
      })
      .superRefine((reaction, ctx) => {
        const isEmoji = reaction.type === 'emoji';
        if (isEmoji !== (reaction.emoji !== undefined)) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: ['emoji'],
            message: 'emoji is present exactly when type is emoji',
          });
        }
        if (isEmoji !== (reaction.content === null)) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: ['content'],
            message: 'content is null exactly when type is emoji',
          });
        }
      }),
    from: eventAddress('The contact who reacted.', '+14155550123'),
    to: eventAddress('The receiving instance address.', '+14155550100'),
    channel: ChatChannel,
  }),
  {
    description: 'A contact reacted to a message (`type: remove` when a reaction was taken back).',
  },
);
/** Data of `message.reaction`. */
export type MessageReactionData = z.infer<typeof MessageReactionData>;

/** Data of `message.audio_kept`. */
export const MessageAudioKeptData = component(
  'MessageAudioKeptData',
  z.object({
    externalMessageId: doc(z.string(), { description: 'GUID of the keep event.' }),
    targetMessageId: doc(MessageId.nullable(), {
      description: 'Internal id of the voice note; null when it is unknown.',
    }),
    targetExternalId: doc(z.string(), { description: 'Provider GUID of the voice note.' }),
    from: eventAddress('The contact who kept it.', '+14155550123'),
    to: eventAddress('The instance number.', '+14155550100'),
    channel: z.literal('imessage'),
  }),
  { description: 'A contact kept a voice note you sent (imessage only).' },
);
/** Data of `message.audio_kept`. */
export type MessageAudioKeptData = z.infer<typeof MessageAudioKeptData>;

/** Data of `typing.indicator`. */
export const TypingIndicatorData = component(
  'TypingIndicatorData',
  z.object({
    chatId: doc(z.string(), {
      description: 'The chat the contact types in.',
      example: '14155550123@s.whatsapp.net',
    }),
    from: eventAddress('The contact typing.', '+14155550123'),
    to: eventAddress('The receiving instance address.', '+14155550100'),
    channel: z.literal('whatsapp'),
    status: doc(z.enum(['start', 'stop']), {
      description: '`start` when the contact starts typing, `stop` when they stop.',
    }),
  }),
  { description: 'A contact started or stopped typing (whatsapp only).' },
);
/** Data of `typing.indicator`. */
export type TypingIndicatorData = z.infer<typeof TypingIndicatorData>;
