import {
  type Channel,
  type MessageEffect,
  TAPBACK_TYPES,
  type TapbackType,
} from '@switchboard/contract';
import {
  type FaceTimeCallStatus,
  firstEmoji,
  type ProviderInboundAttachment,
  type ProviderInboundEvent,
  type ProviderReaction,
} from '@switchboard/provider-kit';
import type { BlueBubblesMessage } from './bluebubbles-api';

/** The effect ids of iMessage, as BlueBubbles takes them in `effectId` (from the BlueBubbles app's `effectMap`). */
export const EFFECT_IDS: Readonly<Record<MessageEffect, string>> = {
  slam: 'com.apple.MobileSMS.expressivesend.impact',
  loud: 'com.apple.MobileSMS.expressivesend.loud',
  gentle: 'com.apple.MobileSMS.expressivesend.gentle',
  invisibleInk: 'com.apple.MobileSMS.expressivesend.invisibleink',
  echo: 'com.apple.messages.effect.CKEchoEffect',
  spotlight: 'com.apple.messages.effect.CKSpotlightEffect',
  balloons: 'com.apple.messages.effect.CKHappyBirthdayEffect',
  confetti: 'com.apple.messages.effect.CKConfettiEffect',
  love: 'com.apple.messages.effect.CKHeartEffect',
  lasers: 'com.apple.messages.effect.CKLasersEffect',
  fireworks: 'com.apple.messages.effect.CKFireworksEffect',
};

/** Messages' codes of an emoji tapback and its removal (iOS 17+/macOS 14+), which BlueBubbles sends as numeric strings. */
const EMOJI_TAPBACK = '2006';
const EMOJI_TAPBACK_REMOVED = '3006';

/** What the mapping needs to know about the instance and the message. */
export interface MappingContext {
  /** The instance address (the Mac's iMessage account). */
  address: string;
  /** When the event was received, for events without their own time. */
  now: Date;
}

/**
 * The channel of a BlueBubbles chat: `SMS;…` chats are SMS through the iPhone, `iMessage;…`
 * iMessage. macOS 26 names direct chats `any;-;<address>` whatever the service: there the
 * handle's `service` tells (see docs/decisions/0402-bluebubbles-any-chats-service-from-handle.md).
 */
export function channelOfChat(chatGuid: string | undefined, handleService?: string): Channel {
  if (chatGuid?.startsWith('any;')) return handleService === 'SMS' ? 'sms' : 'imessage';
  return chatGuid?.startsWith('SMS;') ? 'sms' : 'imessage';
}

/** True for a group chat GUID (`iMessage;+;chat…`). */
export function isGroupChat(chatGuid: string | undefined): boolean {
  return chatGuid?.includes(';+;') ?? false;
}

/** The target GUID of a tapback: `p:0/<guid>` and `bp:<guid>` prefixes stripped. */
function tapbackTarget(raw: string): string {
  return raw.replace(/^p:\d+\//, '').replace(/^bp:/, '');
}

/**
 * Reads a tapback's `associatedMessageType` (BlueBubbles sends strings: `love`, `-love`, `sticker`,
 * or numbers it has no name for, e.g. `2006` for an emoji tapback with the emoji in the text).
 * Null for a type with no reaction meaning (a sticker is handled as a message).
 */
function reactionOf(
  type: string,
  text: string | null,
): { reaction: ProviderReaction; removed: boolean } | null {
  const removed = type.startsWith('-') || type === EMOJI_TAPBACK_REMOVED;
  const name = type.replace(/^-/, '');
  if ((TAPBACK_TYPES as readonly string[]).includes(name)) {
    return { reaction: { type: name as TapbackType }, removed };
  }
  if (type === EMOJI_TAPBACK || type === EMOJI_TAPBACK_REMOVED) {
    const emoji = firstEmoji(text ?? '');
    return emoji ? { reaction: { type: 'emoji', emoji }, removed } : null;
  }
  return null;
}

/** Epoch milliseconds as a date, or `fallback`. */
function dateOf(ms: number | null | undefined, fallback: Date): Date {
  return typeof ms === 'number' && ms > 0 ? new Date(ms) : fallback;
}

/** The chat GUID of a message, when the payload carries it. */
export function chatOf(message: BlueBubblesMessage): string | undefined {
  return message.chats?.[0]?.guid;
}

/**
 * The provider events of a message a contact sent or changed (`new-message`, `updated-message`
 * and reconciliation all come through here; the upstream event ids make repeats harmless):
 * a text or attachments, a tapback, a group change, an edit or an unsend.
 */
export function contactEvents(
  message: BlueBubblesMessage,
  chatGuid: string | undefined,
  context: MappingContext,
  attachments: readonly ProviderInboundAttachment[],
  resolveHandle: (rowId: number) => string | undefined,
): ProviderInboundEvent[] {
  const channel = channelOfChat(chatGuid, message.handle?.service);
  const from = message.handle?.address;
  if (!from) return [];
  const group = isGroupChat(chatGuid);
  const common = {
    channel,
    to: context.address,
    ...(group && chatGuid ? { chatId: chatGuid } : {}),
  };
  const occurredAt = dateOf(message.dateCreated, context.now);
  if (message.itemType !== 0) {
    return groupEvent(message, chatGuid, context, resolveHandle);
  }
  if (message.associatedMessageGuid && message.associatedMessageType) {
    const reaction = reactionOf(message.associatedMessageType, message.text);
    if (reaction) {
      return [
        {
          kind: 'message.reaction',
          ...common,
          occurredAt,
          upstreamEventId: message.guid,
          externalId: message.guid,
          from,
          targetExternalId: tapbackTarget(message.associatedMessageGuid),
          reaction: reaction.reaction,
          removed: reaction.removed,
        },
      ];
    }
  }
  const events: ProviderInboundEvent[] = [];
  const sticker = message.associatedMessageType === 'sticker';
  events.push({
    kind: 'message.inbound',
    ...common,
    occurredAt,
    upstreamEventId: message.guid,
    externalId: message.guid,
    from,
    isGroup: group,
    text: cleanText(message.text),
    attachments,
    ...(message.threadOriginatorGuid
      ? { replyToExternalId: message.threadOriginatorGuid }
      : sticker && message.associatedMessageGuid
        ? { replyToExternalId: tapbackTarget(message.associatedMessageGuid) }
        : {}),
  });
  if (typeof message.dateEdited === 'number' && message.dateEdited > 0 && !message.dateRetracted) {
    events.push({
      kind: 'message.changed',
      ...common,
      occurredAt: new Date(message.dateEdited),
      upstreamEventId: `${message.guid}:edited:${message.dateEdited}`,
      externalId: message.guid,
      from,
      change: { type: 'edited', text: cleanText(message.text) },
    });
  }
  if (typeof message.dateRetracted === 'number' && message.dateRetracted > 0) {
    events.push({
      kind: 'message.changed',
      ...common,
      occurredAt: new Date(message.dateRetracted),
      upstreamEventId: `${message.guid}:unsent`,
      externalId: message.guid,
      from,
      change: { type: 'unsent' },
    });
  }
  return events;
}

/**
 * The status events of a message the gateway sent, as far as the message says: `sent` (it exists
 * and has no error), `delivered`, `read`, or `failed` with Messages' error code.
 */
export function ownSendStatuses(
  message: BlueBubblesMessage,
  chatGuid: string | undefined,
  context: MappingContext,
  attemptId: string | undefined,
): ProviderInboundEvent[] {
  const base = {
    kind: 'message.status' as const,
    channel: channelOfChat(chatGuid, message.handle?.service),
    externalId: message.guid,
    ...(attemptId ? { attemptId } : {}),
  };
  if (message.error !== 0) {
    return [
      {
        ...base,
        occurredAt: dateOf(message.dateCreated, context.now),
        upstreamEventId: `${message.guid}:failed`,
        status: 'failed',
        error: sendFailure(message.error),
      },
    ];
  }
  const events: ProviderInboundEvent[] = [
    {
      ...base,
      occurredAt: dateOf(message.dateCreated, context.now),
      upstreamEventId: `${message.guid}:sent`,
      status: 'sent',
    },
  ];
  if (message.dateDelivered) {
    events.push({
      ...base,
      occurredAt: new Date(message.dateDelivered),
      upstreamEventId: `${message.guid}:delivered`,
      status: 'delivered',
    });
  }
  if (message.dateRead) {
    events.push({
      ...base,
      occurredAt: new Date(message.dateRead),
      upstreamEventId: `${message.guid}:read`,
      status: 'read',
    });
  }
  return events;
}

/** The inbound event of a message typed on the Mac or its iPhone: stored with `source: "device"`. */
export function deviceSendEvent(
  message: BlueBubblesMessage,
  chatGuid: string | undefined,
  context: MappingContext,
  attachments: readonly ProviderInboundAttachment[],
): ProviderInboundEvent[] {
  const group = isGroupChat(chatGuid);
  const to = message.handle?.address ?? chatGuid;
  if (!to || message.itemType !== 0 || message.associatedMessageType) return [];
  return [
    {
      kind: 'message.inbound',
      channel: channelOfChat(chatGuid, message.handle?.service),
      occurredAt: dateOf(message.dateCreated, context.now),
      upstreamEventId: message.guid,
      externalId: message.guid,
      from: context.address,
      to,
      ...(group && chatGuid ? { chatId: chatGuid } : {}),
      isGroup: group,
      text: cleanText(message.text),
      attachments,
      fromMe: true,
    },
  ];
}

/** A group change BlueBubbles reports as a message with `itemType`/`groupActionType`. */
function groupEvent(
  message: BlueBubblesMessage,
  chatGuid: string | undefined,
  context: MappingContext,
  resolveHandle: (rowId: number) => string | undefined,
): ProviderInboundEvent[] {
  const actor = message.handle?.address;
  if (!chatGuid || !actor) return [];
  const base = {
    kind: 'chat.event' as const,
    channel: channelOfChat(chatGuid),
    occurredAt: dateOf(message.dateCreated, context.now),
    upstreamEventId: message.guid,
    externalId: message.guid,
    chatId: chatGuid,
    actor,
    to: context.address,
  };
  if (message.itemType === 2) {
    return [{ ...base, action: 'title.changed', title: message.groupTitle ?? '' }];
  }
  if (message.itemType === 3) {
    // Group action 1 is a new group photo, 2 a removed one (MessagePoller.ts:120-125); 0 a member leaving.
    if (message.groupActionType === 1 || message.groupActionType === 2) {
      return [{ ...base, action: 'photo.changed' }];
    }
    return [{ ...base, action: 'participant.left', participant: actor }];
  }
  if (message.itemType === 1) {
    const participant = message.otherHandle ? resolveHandle(message.otherHandle) : undefined;
    if (!participant) return [];
    return [
      {
        ...base,
        action: message.groupActionType === 1 ? 'participant.left' : 'participant.added',
        participant,
      },
    ];
  }
  return [];
}

/** The spec failure of Messages' error code on a sent message. */
export function sendFailure(code: number): {
  code: 'IMESSAGE_SEND_FAILED' | 'PROVIDER_TIMEOUT';
  message: string;
  providerCode: string;
} {
  if (code === 4) {
    return {
      code: 'PROVIDER_TIMEOUT',
      message: 'Messages timed out sending the message',
      providerCode: '4',
    };
  }
  if (code === 22) {
    return {
      code: 'IMESSAGE_SEND_FAILED',
      message: 'The recipient is not registered with iMessage',
      providerCode: '22',
    };
  }
  return {
    code: 'IMESSAGE_SEND_FAILED',
    message: `Messages could not send the message (error ${code})`,
    providerCode: String(code),
  };
}

/** The text of a message without the object-replacement characters that stand for attachments. */
export function cleanText(text: string | null): string {
  return (text ?? '').replaceAll('\ufffc', '').trim();
}

/** The FaceTime statuses BlueBubbles reports, mapped to the spec's; others are ignored. */
export function faceTimeStatusOf(status: unknown): FaceTimeCallStatus | undefined {
  const value = String(status);
  const known: readonly FaceTimeCallStatus[] = [
    'incoming',
    'answered',
    'disconnected',
    'missed',
    'rejected',
    'failed',
  ];
  return (known as readonly string[]).includes(value) ? (value as FaceTimeCallStatus) : undefined;
}
