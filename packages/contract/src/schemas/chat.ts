import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import {
  addCodedIssue,
  E164_PATTERN,
  EMAIL_PATTERN,
  PHONE_LIKE_PATTERN,
  PhoneNumber,
  Timestamp,
  Uuid,
} from './common';

/** The channels that have chats: group chats and per-chat state exist on these two only. */
export const ChatChannel = doc(z.enum(['imessage', 'whatsapp']), {
  description: 'Channel of a chat: `imessage` or `whatsapp` (sms has no chats).',
});
/** A channel that has chats. */
export type ChatChannel = z.infer<typeof ChatChannel>;

/** The most participants a group can be created with: WhatsApp's 1024 members minus the creator. */
export const MAX_GROUP_PARTICIPANTS = 1023;
/** The longest group name: WhatsApp's subject limit, applied to both channels for one rule. */
export const MAX_GROUP_NAME_LENGTH = 100;

/**
 * Checks one participant address: an E.164 phone number, or (when `allowAccounts`) an e-mail
 * style account identifier. Something phone-like that is not E.164 answers `INVALID_PHONE_NUMBER`;
 * anything else is a plain validation error.
 */
function checkParticipant(
  value: string,
  ctx: z.RefinementCtx,
  path: (string | number)[],
  allowAccounts: boolean,
): void {
  if (E164_PATTERN.test(value)) return;
  if (EMAIL_PATTERN.test(value)) {
    if (!allowAccounts) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path,
        message: `"${value}" is an account identifier; whatsapp participants must be E.164 phone numbers`,
      });
    }
    return;
  }
  if (PHONE_LIKE_PATTERN.test(value)) {
    addCodedIssue(
      ctx,
      'INVALID_PHONE_NUMBER',
      `"${value}" is not an E.164 phone number (+ and 2 to 15 digits)`,
      path,
    );
    return;
  }
  ctx.addIssue({
    code: z.ZodIssueCode.custom,
    path,
    message: `"${value}" is neither an E.164 phone number nor an e-mail style account identifier`,
  });
}

/** A new group-name schema (fresh per field, so each carries its own docs): 1 to 100 characters, not blank. */
function groupName() {
  return z
    .string()
    .min(1)
    .max(MAX_GROUP_NAME_LENGTH)
    .refine((value) => value.trim().length > 0, { message: 'must not be blank' });
}

/** `POST /v1/chats/groups` body. */
export const CreateGroupRequest = component(
  'CreateGroupRequest',
  z
    .object({
      participants: doc(z.array(z.string()).min(1).max(MAX_GROUP_PARTICIPANTS), {
        description:
          'The other members: E.164 phone numbers, or e-mail style account identifiers on imessage. Normalized to JIDs on whatsapp.',
        example: ['+14155550101', '+14155550102'],
      }),
      name: doc(groupName().optional(), {
        description: 'Group name, 1 to 100 characters. Required on whatsapp (`NAME_REQUIRED`).',
        example: 'Launch crew',
      }),
      channel: doc(ChatChannel.default('imessage'), {
        description: 'Channel of the group; `imessage` by default.',
      }),
      from: doc(PhoneNumber.optional(), {
        description:
          "Instance that creates the group (one of the customer's authorized numbers); the customer's default instance for the channel when omitted.",
      }),
    })
    .strict()
    .superRefine((body, ctx) => {
      const allowAccounts = body.channel === 'imessage';
      const seen = new Set<string>();
      body.participants.forEach((participant, index) => {
        checkParticipant(participant, ctx, ['participants', index], allowAccounts);
        if (seen.has(participant)) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: ['participants', index],
            message: `"${participant}" is listed twice`,
          });
        }
        seen.add(participant);
      });
      if (body.channel === 'whatsapp' && body.name === undefined) {
        addCodedIssue(ctx, 'NAME_REQUIRED', 'a whatsapp group needs a name', ['name']);
      }
    }),
  {
    description: 'A new group chat.',
    example: {
      participants: ['+14155550101', '+14155550102'],
      name: 'Launch crew',
      channel: 'whatsapp',
      from: '+14155550100',
    },
  },
);
/** A group creation body as the server sees it (`channel` defaulted). */
export type CreateGroupRequest = z.infer<typeof CreateGroupRequest>;
/** A group creation body as a caller writes it (`channel` may be omitted). */
export type CreateGroupInput = z.input<typeof CreateGroupRequest>;

/** A WhatsApp group member as the API shows it. */
export const WhatsAppParticipant = component(
  'WhatsAppParticipant',
  z.object({
    handle: doc(z.string(), {
      description:
        'Provider address: a phone JID `<digits>@s.whatsapp.net`, or a linked-device id `<id>@lid` while the phone is unresolved.',
      example: '14155550101@s.whatsapp.net',
    }),
    isPhoneResolved: doc(z.boolean(), {
      description:
        'True when `handle` is a phone-based JID. Authoritative (not the handle format); may change from false to true during the group’s life.',
    }),
    admin: doc(z.enum(['admin', 'superadmin']).nullable(), {
      description: 'Admin role in the group, or null for a plain member.',
    }),
  }),
  {
    description: 'A member of a WhatsApp chat.',
    example: { handle: '14155550101@s.whatsapp.net', isPhoneResolved: true, admin: null },
  },
);
/** A WhatsApp group member. */
export type WhatsAppParticipant = z.infer<typeof WhatsAppParticipant>;

const chatFields = {
  chatId: doc(z.string(), {
    description:
      'Provider chat identifier: `<prefix>;+;<guid>` on imessage, `<id>@g.us` on whatsapp. URL-encode it in paths.',
    example: '120363041234567890@g.us',
  }),
  conversationId: doc(Uuid.optional(), {
    description:
      'Stable persisted id of the chat, usable as `chatId` on sends; absent if persistence failed (the chat still exists).',
  }),
  name: doc(z.string().optional(), { description: 'Display name (groups).' }),
  isGroup: doc(z.boolean(), { description: 'True for groups, false for 1:1 chats.' }),
};

/** An iMessage chat: participants are plain addresses. */
export const IMessageChat = component(
  'IMessageChat',
  z.object({
    ...chatFields,
    channel: doc(z.literal('imessage').optional(), {
      description: 'Always `imessage`; the spec allows legacy responses to omit it.',
    }),
    participants: doc(z.array(z.string()), {
      description: 'Phone numbers (E.164) or account identifiers.',
      example: ['+14155550101', 'ada@example.com'],
    }),
  }),
  { description: 'An iMessage chat.' },
);
/** An iMessage chat. */
export type IMessageChat = z.infer<typeof IMessageChat>;

/** A WhatsApp chat: participants are objects with their resolution state and role. */
export const WhatsAppChat = component(
  'WhatsAppChat',
  z.object({
    ...chatFields,
    channel: z.literal('whatsapp'),
    participants: z.array(WhatsAppParticipant),
  }),
  { description: 'A WhatsApp chat.' },
);
/** A WhatsApp chat. */
export type WhatsAppChat = z.infer<typeof WhatsAppChat>;

const CHAT_EXAMPLE = {
  chatId: '120363041234567890@g.us',
  conversationId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
  channel: 'whatsapp',
  participants: [
    { handle: '14155550100@s.whatsapp.net', isPhoneResolved: true, admin: 'superadmin' },
    { handle: '14155550101@s.whatsapp.net', isPhoneResolved: true, admin: null },
    { handle: '208512345678901@lid', isPhoneResolved: false, admin: null },
  ],
  name: 'Launch crew',
  isGroup: true,
};

/** `GET /v1/chats/{chatId}`: a chat on either channel (tell them apart by `channel`). */
export const Chat = component('Chat', z.union([IMessageChat, WhatsAppChat]), {
  description:
    'A chat (conversation). `participants` are strings on imessage and participant objects on whatsapp.',
  example: CHAT_EXAMPLE,
});
/** A chat on either channel. */
export type Chat = z.infer<typeof Chat>;

/** `POST /v1/chats/groups` 201: the new group with its creation time. */
export const CreatedGroup = component(
  'CreatedGroup',
  z.union([
    IMessageChat.extend({
      createdAt: Timestamp,
      firstMessage: doc(z.string().optional(), {
        description:
          'imessage: the message sent to create the group, which the caller did not write (iMessage has no empty group): the group’s `name`, or 👋 when it has none.',
        example: 'Launch crew',
      }),
    }),
    WhatsAppChat.extend({ createdAt: Timestamp }),
  ]),
  {
    description: 'The group just created.',
    example: { ...CHAT_EXAMPLE, createdAt: '2026-11-21T10:00:00.000Z' },
  },
);
/** A group just created. */
export type CreatedGroup = z.infer<typeof CreatedGroup>;

/** Path parameters of `/v1/chats/{chatId}…`. */
export const ChatPathParams = z.object({
  chatId: doc(z.string().min(1).max(255), {
    description:
      'URL-encoded provider chat identifier (`iMessage;+;chat…`, `…@g.us`), or the chat’s `conversationId`.',
    example: '120363041234567890@g.us',
  }),
});
/** Path parameters of chat routes. */
export type ChatPathParams = z.infer<typeof ChatPathParams>;

/** Path parameters of `DELETE /v1/chats/{chatId}/participants/{participantId}`. */
export const ChatParticipantPathParams = ChatPathParams.extend({
  participantId: doc(z.string().min(1).max(255), {
    description:
      'URL-encoded participant: E.164 phone number or account identifier; on whatsapp also the participant’s `handle`.',
    example: '+14155550101',
  }),
});
/** Path parameters of participant removal. */
export type ChatParticipantPathParams = z.infer<typeof ChatParticipantPathParams>;

/** `PUT /v1/chats/{chatId}/name` body. */
export const RenameChatRequest = component(
  'RenameChatRequest',
  z
    .object({ name: doc(groupName(), { description: 'New group name, 1 to 100 characters.' }) })
    .strict(),
  { example: { name: 'Launch crew (final)' } },
);
/** The body of a rename. */
export type RenameChatRequest = z.infer<typeof RenameChatRequest>;

/** `POST /v1/chats/{chatId}/participants` body. */
export const AddParticipantRequest = component(
  'AddParticipantRequest',
  z
    .object({
      participant: doc(z.string(), {
        description:
          'E.164 phone number, or an e-mail style account identifier (imessage only; on whatsapp it answers `VALIDATION_ERROR`).',
        example: '+14155550103',
      }),
    })
    .strict()
    .superRefine((body, ctx) => checkParticipant(body.participant, ctx, ['participant'], true)),
  { example: { participant: '+14155550103' } },
);
/** The body of a participant addition. */
export type AddParticipantRequest = z.infer<typeof AddParticipantRequest>;

/** `POST /v1/chats/{chatId}/typing` body. */
export const TypingRequest = component(
  'TypingRequest',
  z
    .object({
      status: doc(z.enum(['start', 'stop']), {
        description:
          '`start` shows the indicator (whatsapp: composing), `stop` clears it (paused).',
      }),
    })
    .strict(),
  { example: { status: 'start' } },
);
/** The body of a typing call. */
export type TypingRequest = z.infer<typeof TypingRequest>;

const ResultChatId = doc(z.string(), {
  description: 'Provider chat identifier (also when the path used the `conversationId`).',
  example: '120363041234567890@g.us',
});

/** `PUT /v1/chats/{chatId}/name` result. */
export const RenameChatResult = z.object({ chatId: ResultChatId, name: z.string() });
/** The result of a rename. */
export type RenameChatResult = z.infer<typeof RenameChatResult>;

/** `POST /v1/chats/{chatId}/participants` result. */
export const AddParticipantResult = z.object({
  chatId: ResultChatId,
  participant: doc(z.string(), { description: 'The participant as given.' }),
});
/** The result of a participant addition. */
export type AddParticipantResult = z.infer<typeof AddParticipantResult>;

/** `DELETE /v1/chats/{chatId}/participants/{participantId}` result. */
export const RemoveParticipantResult = z.object({
  chatId: ResultChatId,
  removedParticipant: doc(z.string(), { description: 'The participant as given in the path.' }),
});
/** The result of a participant removal. */
export type RemoveParticipantResult = z.infer<typeof RemoveParticipantResult>;

/** `POST /v1/chats/{chatId}/leave` result. */
export const LeaveChatResult = z.object({ chatId: ResultChatId, left: z.literal(true) });
/** The result of leaving a chat. */
export type LeaveChatResult = z.infer<typeof LeaveChatResult>;

/** `POST /v1/chats/{chatId}/read` result. */
export const MarkChatReadResult = z.object({ chatId: ResultChatId, read: z.literal(true) });
/** The result of marking a chat read. */
export type MarkChatReadResult = z.infer<typeof MarkChatReadResult>;

/** `POST /v1/chats/{chatId}/unread` result. */
export const MarkChatUnreadResult = z.object({ chatId: ResultChatId, unread: z.literal(true) });
/** The result of marking a chat unread. */
export type MarkChatUnreadResult = z.infer<typeof MarkChatUnreadResult>;

/** `POST /v1/chats/{chatId}/typing` result. */
export const TypingResult = z.object({
  chatId: ResultChatId,
  typing: doc(z.boolean(), { description: 'True after `start`, false after `stop`.' }),
});
/** The result of a typing call. */
export type TypingResult = z.infer<typeof TypingResult>;
