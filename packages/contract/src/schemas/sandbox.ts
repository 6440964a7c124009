import { z } from 'zod';
import { FaceTimeCallStatus } from '../events';
import { component, doc, type SchemaDocs } from '../schema-annotations';
import { ChatChannel } from './chat';
import { Channel, HealthStatus, MessageId, PhoneNumber, Uuid } from './common';
import { HEALTH_WARNING_CODES } from './health';
import { InboundAttachment, OtpDetection } from './inbound-event-data';
import {
  BASE64_MESSAGE,
  fileName,
  httpsUrl,
  isBase64,
  MESSAGE_TEXT_MAX_LENGTH,
  mimeTypeString,
  phoneOrEmailCheck,
} from './message-rules';
import { TAPBACK_TYPES } from './tapbacks';

// The sandbox lets a developer make the simulated world act: contacts writing, reacting, typing,
// calling, phones scanning QR codes. Every request names one of the caller's own numbers served by
// the simulator; the server answers 404 for any other number, so nothing here reaches a real
// upstream or another customer.

/** A WhatsApp linked-device handle: `<digits>@lid`. */
export const LID_PATTERN = /^\d{1,30}@lid$/;

/** The most attachments one simulated inbound message may carry (the send limit). */
export const SANDBOX_ATTACHMENTS_MAX = 20;

/**
 * A new contact-address schema: E.164, an e-mail style address, and (when `allowLid`) a WhatsApp
 * `<id>@lid` handle. A phone-like value that is not E.164 answers `INVALID_PHONE_NUMBER`.
 */
function contactAddress(description: string, example: string, allowLid = false) {
  const check = phoneOrEmailCheck(
    allowLid ? { pattern: LID_PATTERN, name: 'an <id>@lid handle' } : undefined,
  );
  return doc(z.string().max(320).superRefine(check), { description, example });
}

/** A new schema of one of the caller's numbers (or its e-mail style address) as the receiver. */
function ownAddress(description: string) {
  return contactAddress(description, '+14155550100');
}

/** A new schema of the provider chat id an action happens in (a fresh instance, for its docs). */
function chatIdField(docs: SchemaDocs) {
  return doc(z.string().min(1).max(255).optional(), docs);
}

/**
 * The fields naming the message a contact acts on: the gateway's `messageId`, or the provider's
 * `targetExternalId` (checked by {@link requireOneTarget}).
 */
function targetFields(messageIdDocs: SchemaDocs, externalIdDocs: SchemaDocs) {
  return {
    messageId: doc(MessageId.optional(), messageIdDocs),
    targetExternalId: doc(z.string().min(1).max(255).optional(), externalIdDocs),
  };
}

/** Exactly one of `messageId` and `targetExternalId` names the target. */
function requireOneTarget(
  body: { messageId?: string | undefined; targetExternalId?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if ((body.messageId === undefined) === (body.targetExternalId === undefined)) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['messageId'],
      message: 'exactly one of messageId and targetExternalId is required',
    });
  }
}

/** What a simulated typing indicator says. */
const TYPING_STATUSES = ['start', 'stop'] as const;
/** The statuses the sandbox can report for a sent message. */
const REPORTABLE_STATUSES = ['delivered', 'read', 'failed'] as const;

/** A file a simulated contact sends: inline base64 bytes or an https URL the server fetches. */
export const SandboxAttachment = component(
  'SandboxAttachment',
  z
    .object({
      data: doc(z.string().optional(), {
        format: 'byte',
        description:
          'The file as standard base64 (RFC 4648, with padding). Exactly one of `data` and `url`.',
        example: 'iVBORw0KGgo=',
      }),
      url: doc(httpsUrl().optional(), {
        format: 'uri',
        description:
          'HTTPS URL the server fetches, as it fetches a real upstream’s media. If the fetch fails, the attachment arrives with a `note` instead of a `downloadUrl`.',
        example: 'https://cdn.example.com/photos/IMG_0412.jpg',
      }),
      mimeType: doc(mimeTypeString().optional(), {
        description:
          'MIME type; inferred from the file name when omitted (`application/octet-stream` as a last resort).',
        example: 'image/jpeg',
      }),
      filename: doc(fileName().optional(), {
        description: 'File name the contact gives, if any.',
        example: 'IMG_0412.jpg',
      }),
    })
    .strict()
    .superRefine((item, ctx) => {
      if ((item.data === undefined) === (item.url === undefined)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['data'],
          message: 'exactly one of data and url is required',
        });
      }
      if (item.data !== undefined && !isBase64(item.data)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['data'], message: BASE64_MESSAGE });
      }
    }),
  {
    description: 'A file a simulated contact sends, as base64 bytes or a URL.',
    example: { data: 'iVBORw0KGgo=', mimeType: 'image/png', filename: 'pixel.png' },
  },
);
/** A file a simulated contact sends. */
export type SandboxAttachment = z.infer<typeof SandboxAttachment>;

/** `POST /v1/sandbox/inbound-messages` body. */
export const SandboxInboundMessageRequest = component(
  'SandboxInboundMessageRequest',
  z
    .object({
      channel: Channel,
      from: contactAddress(
        'The contact writing: E.164, an e-mail style address (imessage), or an `<id>@lid` handle (whatsapp groups).',
        '+14155550123',
        true,
      ),
      to: ownAddress(
        'Your number (or e-mail style address) receiving it; served by the simulator.',
      ),
      text: doc(z.string().max(MESSAGE_TEXT_MAX_LENGTH).optional(), {
        description: 'Text; may hold a verification code to try OTP handling.',
        example: 'Are we still on for 6?',
      }),
      attachments: doc(z.array(SandboxAttachment).min(1).max(SANDBOX_ATTACHMENTS_MAX).optional(), {
        description: 'Files, 1 to 20.',
      }),
      chatId: chatIdField({
        description:
          'The chat it arrives in: a group (`iMessage;+;chat…`, `…@g.us`) or a direct chat id. Omit for a plain direct message.',
        example: 'iMessage;+;chat493027156834',
      }),
      senderName: doc(z.string().min(1).max(100).optional(), {
        description: 'The contact’s display name (WhatsApp push name).',
        example: 'Ada',
      }),
    })
    .strict()
    .superRefine((body, ctx) => {
      if ((body.text === undefined || body.text === '') && body.attachments === undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['text'],
          message: 'must not be empty unless attachments are given',
        });
      }
      if (body.channel !== 'whatsapp' && LID_PATTERN.test(body.from)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['from'],
          message: '<id>@lid handles exist on whatsapp only',
        });
      }
    }),
  {
    description: 'A message a simulated contact sends to one of your numbers.',
    example: {
      channel: 'imessage',
      from: '+14155550123',
      to: '+14155550100',
      text: 'Are we still on for 6?',
    },
  },
);
/** The body of a simulated inbound message. */
export type SandboxInboundMessageRequest = z.infer<typeof SandboxInboundMessageRequest>;

/** What a simulated inbound message created. */
export const SandboxInboundMessageResult = component(
  'SandboxInboundMessageResult',
  z.object({
    messageId: MessageId,
    externalId: doc(z.string(), {
      description: 'The provider id the simulator gave the message.',
      example: '6F1C2A9E-3B4D-4E5F-8A7B-9C0D1E2F3A4B',
    }),
    conversationId: doc(Uuid.nullable(), {
      description: 'The chat it arrived in, when it arrived in one.',
    }),
    attachments: doc(z.array(InboundAttachment), {
      description: 'The stored attachments, as `message.inbound` shows them.',
    }),
    suppressed: doc(z.boolean(), {
      description:
        'True when the text holds a verification code and your `otpHandling` is `suppress`: no event, not listed, only in the signup codes.',
    }),
    // The component's own description applies; null when the text holds no verification code.
    otp: OtpDetection.nullable(),
  }),
  {
    description: 'The message the simulated contact sent, as the gateway stored it.',
    example: {
      messageId: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
      externalId: '6F1C2A9E-3B4D-4E5F-8A7B-9C0D1E2F3A4B',
      conversationId: null,
      attachments: [],
      suppressed: false,
      otp: null,
    },
  },
);
/** What a simulated inbound message created. */
export type SandboxInboundMessageResult = z.infer<typeof SandboxInboundMessageResult>;

/** The reactions a simulated contact can send: the six tapbacks and any emoji. */
export const SandboxReactionType = doc(z.enum([...TAPBACK_TYPES, 'emoji']), {
  description: 'A tapback, or `emoji` with the `emoji` field.',
  example: 'love',
});
/** A reaction type of the sandbox. */
export type SandboxReactionType = z.infer<typeof SandboxReactionType>;

/** `POST /v1/sandbox/reactions` body. */
export const SandboxReactionRequest = component(
  'SandboxReactionRequest',
  z
    .object({
      channel: Channel,
      from: contactAddress('The contact reacting.', '+14155550123', true),
      to: ownAddress('Your number the reacted message belongs to; served by the simulator.'),
      ...targetFields(
        {
          description:
            'Your message reacted to (outbound or inbound). Exactly one of `messageId` and `targetExternalId`.',
        },
        {
          description:
            'A provider id instead, for example one the gateway does not know (then `targetMessageId` is null in the event).',
          example: '6F1C2A9E-3B4D-4E5F-8A7B-9C0D1E2F3A4B',
        },
      ),
      type: SandboxReactionType,
      emoji: doc(z.string().min(1).max(32).optional(), {
        description: 'The emoji, when `type` is `emoji`.',
        example: '🎉',
      }),
      remove: doc(z.boolean().optional(), {
        description: 'True to take the reaction back (the event has type `remove`).',
      }),
      chatId: chatIdField({ description: 'The group, when the reaction happens in one.' }),
    })
    .strict()
    .superRefine((body, ctx) => {
      requireOneTarget(body, ctx);
      if ((body.type === 'emoji') !== (body.emoji !== undefined)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['emoji'],
          message: 'is required when type is emoji, and only then',
        });
      }
    }),
  {
    description:
      'A simulated contact reacts to a message. On sms it arrives as text, as an iPhone sends it to an SMS-only phone.',
    example: {
      channel: 'imessage',
      from: '+14155550123',
      to: '+14155550100',
      messageId: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
      type: 'love',
    },
  },
);
/** The body of a simulated reaction. */
export type SandboxReactionRequest = z.infer<typeof SandboxReactionRequest>;

/** What a simulated reaction created. */
export const SandboxReactionResult = z.object({
  externalId: doc(z.string(), { description: 'The provider id of the reaction (or sms text).' }),
  targetMessageId: doc(MessageId.nullable(), {
    description: 'Your message reacted to; null when the target is unknown.',
  }),
  messageId: doc(MessageId.nullable(), {
    description: 'On sms, the inbound text message the reaction became; null otherwise.',
  }),
});
/** What a simulated reaction created. */
export type SandboxReactionResult = z.infer<typeof SandboxReactionResult>;

/** `POST /v1/sandbox/typing` body. */
export const SandboxTypingRequest = component(
  'SandboxTypingRequest',
  z
    .object({
      channel: ChatChannel,
      from: contactAddress('The contact typing.', '+14155550123', true),
      to: ownAddress('Your number; served by the simulator.'),
      status: doc(z.enum(TYPING_STATUSES), { description: 'Starts or stops typing.' }),
      chatId: chatIdField({ description: 'The group, when typing in one.' }),
    })
    .strict(),
  {
    description:
      'A simulated contact starts or stops typing (`typing.indicator` on whatsapp; imessage emits no event).',
    example: { channel: 'whatsapp', from: '+14155550160', to: '+14155550100', status: 'start' },
  },
);
/** The body of a simulated typing indicator. */
export type SandboxTypingRequest = z.infer<typeof SandboxTypingRequest>;

/** What a simulated typing indicator did. */
export const SandboxTypingResult = z.object({
  status: z.enum(TYPING_STATUSES),
  emitted: doc(z.boolean(), {
    description: 'True when it produced a `typing.indicator` event (whatsapp only).',
  }),
});
/** What a simulated typing indicator did. */
export type SandboxTypingResult = z.infer<typeof SandboxTypingResult>;

/** `POST /v1/sandbox/messages/{id}/status` body. */
export const SandboxMessageStatusRequest = component(
  'SandboxMessageStatusRequest',
  z
    .object({
      status: doc(z.enum(REPORTABLE_STATUSES), {
        description:
          '`read` is a read receipt (not on sms); `failed` a late carrier failure. Status only moves forward.',
      }),
    })
    .strict(),
  { description: 'A status report for one of your sent messages.', example: { status: 'read' } },
);
/** The body of a simulated status report. */
export type SandboxMessageStatusRequest = z.infer<typeof SandboxMessageStatusRequest>;

/** What a simulated status report did. */
export const SandboxMessageStatusResult = z.object({
  messageId: MessageId,
  externalId: doc(z.string(), { description: 'The provider id the report was for.' }),
  status: z.enum(REPORTABLE_STATUSES),
});
/** What a simulated status report did. */
export type SandboxMessageStatusResult = z.infer<typeof SandboxMessageStatusResult>;

/** `POST /v1/sandbox/audio-kept` body. */
export const SandboxAudioKeptRequest = component(
  'SandboxAudioKeptRequest',
  z
    .object({
      from: contactAddress('The contact keeping the voice note.', '+14155550123'),
      to: ownAddress('Your number that sent it; served by the simulator (imessage).'),
      ...targetFields(
        { description: 'Your voice note. Exactly one of `messageId` and `targetExternalId`.' },
        { description: 'A provider id instead (then `targetMessageId` is null in the event).' },
      ),
    })
    .strict()
    .superRefine(requireOneTarget),
  {
    description: 'A simulated contact keeps a voice note you sent (imessage).',
    example: {
      from: '+14155550123',
      to: '+14155550100',
      messageId: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
    },
  },
);
/** The body of a simulated audio keep. */
export type SandboxAudioKeptRequest = z.infer<typeof SandboxAudioKeptRequest>;

/** What a simulated audio keep created. */
export const SandboxAudioKeptResult = z.object({
  externalId: doc(z.string(), { description: 'The provider id of the keep event.' }),
  targetMessageId: doc(MessageId.nullable(), {
    description: 'Your voice note; null when the target is unknown.',
  }),
});
/** What a simulated audio keep created. */
export type SandboxAudioKeptResult = z.infer<typeof SandboxAudioKeptResult>;

/** `POST /v1/sandbox/chats/{chatId}/events` body. */
export const SandboxChatEventRequest = component(
  'SandboxChatEventRequest',
  z
    .object({
      action: doc(
        z.enum(['participant.added', 'participant.left', 'title.changed', 'photo.changed']),
        { description: 'What the contact does to the group.' },
      ),
      actor: contactAddress('The contact making the change.', '+14155550123', true),
      participant: doc(z.string().min(1).max(320).optional(), {
        description:
          'The member added or gone (E.164, account identifier, or a whatsapp handle); for the participant actions only.',
        example: '+14155550124',
      }),
      title: doc(z.string().min(1).max(100).optional(), {
        description: 'The new name; for `title.changed` only.',
        example: 'Launch crew',
      }),
    })
    .strict()
    .superRefine((body, ctx) => {
      const isParticipantAction =
        body.action === 'participant.added' || body.action === 'participant.left';
      if (isParticipantAction !== (body.participant !== undefined)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['participant'],
          message: 'is required for participant.added and participant.left, and only then',
        });
      }
      if ((body.action === 'title.changed') !== (body.title !== undefined)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['title'],
          message: 'is required for title.changed, and only then',
        });
      }
    }),
  {
    description: 'A simulated contact changes one of your group chats.',
    example: { action: 'participant.added', actor: '+14155550123', participant: '+14155550124' },
  },
);
/** The body of a simulated group change. */
export type SandboxChatEventRequest = z.infer<typeof SandboxChatEventRequest>;

/** What a simulated group change created. */
export const SandboxChatEventResult = z.object({
  externalId: doc(z.string(), { description: 'The provider id of the group event.' }),
  chatId: doc(z.string(), { description: 'The provider chat id.' }),
  conversationId: Uuid,
});
/** What a simulated group change created. */
export type SandboxChatEventResult = z.infer<typeof SandboxChatEventResult>;

/** `POST /v1/sandbox/facetime/calls` body. */
export const SandboxFaceTimeCallRequest = component(
  'SandboxFaceTimeCallRequest',
  z
    .object({
      caller: contactAddress('The contact calling.', '+14155550123'),
      to: ownAddress('Your number (or e-mail style address) called; served by the simulator.'),
      video: doc(z.boolean().default(true), {
        description: 'A video call (default) or, with false, an audio call.',
      }),
    })
    .strict(),
  {
    description: 'A simulated contact calls you on FaceTime (`facetime.incoming`).',
    example: { caller: '+14155550123', to: '+14155550100', video: false },
  },
);
/** The body of a simulated FaceTime call. */
export type SandboxFaceTimeCallRequest = z.infer<typeof SandboxFaceTimeCallRequest>;

/** A simulated FaceTime call. */
export const SandboxFaceTimeCall = z.object({
  callUuid: doc(z.string(), {
    description: 'Identifies the call in its events and in the status route.',
    example: '6F1C2A9E-3B4D-4E5F-8A7B-9C0D1E2F3A4B',
  }),
  status: FaceTimeCallStatus,
});
/** A simulated FaceTime call. */
export type SandboxFaceTimeCall = z.infer<typeof SandboxFaceTimeCall>;

/** Path parameters of `/v1/sandbox/facetime/calls/{callUuid}/status`. */
export const SandboxCallPathParams = z.object({
  callUuid: doc(z.string().min(1).max(64), {
    description: 'The `callUuid` the call answered.',
    example: '6F1C2A9E-3B4D-4E5F-8A7B-9C0D1E2F3A4B',
  }),
});
/** Path parameters of the FaceTime status route. */
export type SandboxCallPathParams = z.infer<typeof SandboxCallPathParams>;

/** `POST /v1/sandbox/facetime/calls/{callUuid}/status` body. */
export const SandboxFaceTimeStatusRequest = component(
  'SandboxFaceTimeStatusRequest',
  z
    .object({
      status: doc(z.enum(['answered', 'disconnected', 'missed', 'rejected', 'failed']), {
        description:
          'The call’s next state; `disconnected`, `missed`, `rejected` and `failed` end it.',
      }),
    })
    .strict(),
  {
    description: 'A simulated FaceTime call changes state (`facetime.status_changed`).',
    example: { status: 'answered' },
  },
);
/** The body of a simulated FaceTime status change. */
export type SandboxFaceTimeStatusRequest = z.infer<typeof SandboxFaceTimeStatusRequest>;

/** `POST /v1/sandbox/whatsapp/numbers/{phoneNumber}/pairing-code` body. */
export const SandboxEnterPairingCodeRequest = component(
  'SandboxEnterPairingCodeRequest',
  z
    .object({
      code: doc(z.string().min(1).max(20), {
        description:
          'The pairing code as typed on the phone; dashes, spaces and case do not matter.',
        example: 'K7QJ-3M2P',
      }),
    })
    .strict(),
  { description: 'The phone enters a pairing code.', example: { code: 'K7QJ-3M2P' } },
);
/** The body of a simulated pairing-code entry. */
export type SandboxEnterPairingCodeRequest = z.infer<typeof SandboxEnterPairingCodeRequest>;

/** `POST /v1/sandbox/whatsapp/numbers/{phoneNumber}/drop` body. */
export const SandboxDropConnectionRequest = component(
  'SandboxDropConnectionRequest',
  z
    .object({
      reason: doc(z.enum(['connection_lost', 'connection_replaced', 'logged_out']).optional(), {
        description:
          '`connection_lost` (default) and `connection_replaced` keep the credentials; `logged_out` unlinks the device.',
      }),
    })
    .strict(),
  { description: 'The live WhatsApp connection drops.', example: { reason: 'connection_lost' } },
);
/** The body of a simulated connection drop. */
export type SandboxDropConnectionRequest = z.infer<typeof SandboxDropConnectionRequest>;

/** `POST /v1/sandbox/whatsapp/numbers/{phoneNumber}/lid-resolutions` body. */
export const SandboxResolveLidRequest = component(
  'SandboxResolveLidRequest',
  z
    .object({
      lid: doc(z.string().regex(LID_PATTERN, { message: 'must be an <id>@lid handle' }), {
        description: 'The linked-device handle of a group member.',
        example: '208512345678901@lid',
      }),
      phone: doc(PhoneNumber.describe('The phone number it belongs to, E.164.'), {
        example: '+14155550123',
      }),
    })
    .strict(),
  {
    description: 'WhatsApp learns which phone number an `@lid` group member is.',
    example: { lid: '208512345678901@lid', phone: '+14155550123' },
  },
);
/** The body of a simulated `@lid` resolution. */
export type SandboxResolveLidRequest = z.infer<typeof SandboxResolveLidRequest>;

/** What a simulated `@lid` resolution changed. */
export const SandboxResolveLidResult = z.object({
  lid: z.string(),
  jid: doc(z.string(), {
    description: 'The phone JID the handle became.',
    example: '14155550123@s.whatsapp.net',
  }),
  conversationIds: doc(z.array(Uuid), {
    description: 'Your chats whose member list changed.',
  }),
});
/** What a simulated `@lid` resolution changed. */
export type SandboxResolveLidResult = z.infer<typeof SandboxResolveLidResult>;

/** The health values the sandbox can give a simulator instance. */
const OVERRIDE_HEALTH_STATUSES = ['healthy', 'degraded', 'unhealthy'] as const;

/** `POST /v1/sandbox/numbers/{phoneNumber}/health` body. */
export const SandboxHealthRequest = component(
  'SandboxHealthRequest',
  z
    .object({
      status: doc(z.enum(OVERRIDE_HEALTH_STATUSES), {
        description:
          'The health your number shows from now on in `GET /v1/numbers`; `healthy` removes the override.',
      }),
      warnings: doc(z.array(z.enum(HEALTH_WARNING_CODES)).max(HEALTH_WARNING_CODES.length), {
        description:
          'Why it is not healthy, as a real instance reports it (each answered as a sentence); only with `degraded` or `unhealthy`.',
        example: ['private_api_disabled'],
      }).optional(),
    })
    .strict()
    .superRefine((body, ctx) => {
      if (body.status === 'healthy' && body.warnings !== undefined && body.warnings.length > 0) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['warnings'],
          message: 'must be empty when status is healthy',
        });
      }
    }),
  {
    description:
      'The health the simulator instance serving the number reports (every number it serves shows it).',
    example: { status: 'degraded', warnings: ['private_api_disabled'] },
  },
);
/** The body of a simulated health change. */
export type SandboxHealthRequest = z.infer<typeof SandboxHealthRequest>;

/** What a simulated health change recorded. */
export const SandboxHealthResult = z.object({
  instanceName: doc(z.string(), {
    description: 'The simulator instance serving the number.',
    example: 'simulator',
  }),
  // A fresh enum: doc() annotates a schema in place, and HealthStatus is shared.
  status: doc(z.enum(HealthStatus.options), {
    description: 'The health the number now shows.',
  }),
  warnings: doc(z.array(z.string()), {
    description: 'The warnings, as sentences.',
    example: ['Private API disabled'],
  }),
  // A fresh string: doc() annotates a schema in place, and Timestamp is shared.
  checkedAt: doc(z.string(), {
    format: 'date-time',
    description: 'When the override was set.',
    example: '2026-11-21T10:00:00.000Z',
  }),
});
/** What a simulated health change recorded. */
export type SandboxHealthResult = z.infer<typeof SandboxHealthResult>;
