import type {
  ProviderChatEvent,
  ProviderInboundAttachment,
  ProviderInboundEvent,
  ProviderMessageChangedEvent,
  ProviderStatusEvent,
  ProviderTypingEvent,
} from '@switchboard/provider-kit';
import {
  type BaileysEventMap,
  getContentType,
  type MessageUserReceiptUpdate,
  normalizeMessageContent,
  proto,
  toNumber,
  type WAMessage,
  type WAMessageKey,
  WAMessageStubType,
  type WAMessageUpdate,
} from 'baileys';
import { addressOfJid, isGroupJid, isLidJid, jidToPhone } from './jids';

/** What mapping a session's upstream events needs. */
export interface InboundContext {
  /** The owned number of the session, E.164. */
  phoneNumber: string;
  /** The bytes of a received media message. */
  download(message: WAMessage): Promise<Uint8Array>;
}

const Status = proto.WebMessageInfo.Status;
const ProtocolType = proto.Message.ProtocolMessage.Type;

/** The media message kinds and the MIME type to assume when the sender gave none. */
const MEDIA_KINDS = {
  imageMessage: 'image/jpeg',
  videoMessage: 'video/mp4',
  audioMessage: 'audio/ogg; codecs=opus',
  documentMessage: 'application/octet-stream',
  stickerMessage: 'image/webp',
} as const;
type MediaKind = keyof typeof MEDIA_KINDS;

function occurredAt(seconds: unknown): Date {
  const value = toNumber(seconds as number | null | undefined);
  return value > 0 ? new Date(value * 1000) : new Date();
}

/**
 * Who a message key comes from, as the gateway names them: the phone number when known (the JID
 * itself, or the alternate JID WhatsApp sends beside an `@lid` one), else the `@lid` handle.
 */
function senderOf(key: WAMessageKey): string {
  const group = isGroupJid(key.remoteJid);
  const jid = (group ? key.participant : key.remoteJid) ?? '';
  const alt = group ? key.participantAlt : key.remoteJidAlt;
  if (isLidJid(jid) && alt && jidToPhone(alt)) return jidToPhone(alt) as string;
  return addressOfJid(jid);
}

/** The text of a message: plain, extended (with quotes and mentions) or a media caption. */
function textOf(message: proto.IMessage): string {
  return (
    message.conversation ??
    message.extendedTextMessage?.text ??
    message.imageMessage?.caption ??
    message.videoMessage?.caption ??
    message.documentMessage?.caption ??
    ''
  );
}

function contextInfoOf(message: proto.IMessage): proto.IContextInfo | undefined {
  const type = getContentType(message);
  if (!type) return undefined;
  const content = message[type] as { contextInfo?: proto.IContextInfo | null } | null | undefined;
  return content?.contextInfo ?? undefined;
}

/**
 * Maps one message of `messages.upsert` to the gateway's events: a message (text, quote, media),
 * a reaction, an edit or a revoke. `history` marks a message of `append` (stored, never emitted).
 */
export async function eventsOfMessage(
  message: WAMessage,
  context: InboundContext,
  history: boolean,
): Promise<ProviderInboundEvent[]> {
  const key = message.key;
  const content = normalizeMessageContent(message.message);
  if (!content || !key.id || !key.remoteJid || key.remoteJid === 'status@broadcast') return [];
  const chatJid = key.remoteJid;
  const group = isGroupJid(chatJid);
  const fromMe = key.fromMe === true;
  const contact = senderOf(key);
  const when = occurredAt(message.messageTimestamp);
  const base = {
    channel: 'whatsapp' as const,
    occurredAt: when,
    ...(group ? { chatId: chatJid } : {}),
  };

  if (content.reactionMessage) {
    const reaction = content.reactionMessage;
    const target = reaction.key?.id;
    if (!target || fromMe) return [];
    const emoji = reaction.text ?? '';
    return [
      {
        ...base,
        kind: 'message.reaction',
        upstreamEventId: `reaction:${key.id}`,
        externalId: key.id,
        from: contact,
        to: context.phoneNumber,
        targetExternalId: target,
        reaction: { type: 'emoji', emoji },
        removed: emoji === '',
      },
    ];
  }

  const protocol = content.protocolMessage;
  if (protocol) {
    const target = protocol.key?.id;
    if (!target) return [];
    const from = fromMe ? context.phoneNumber : contact;
    if (protocol.type === ProtocolType.REVOKE) {
      return [
        {
          ...base,
          kind: 'message.changed',
          upstreamEventId: `revoke:${target}`,
          externalId: target,
          from,
          to: context.phoneNumber,
          change: { type: 'unsent' },
        },
      ];
    }
    if (protocol.type === ProtocolType.MESSAGE_EDIT && protocol.editedMessage) {
      return [
        {
          ...base,
          kind: 'message.changed',
          upstreamEventId: `edit:${target}:${textOf(protocol.editedMessage)}`,
          externalId: target,
          from,
          to: context.phoneNumber,
          change: { type: 'edited', text: textOf(protocol.editedMessage) },
        },
      ];
    }
    return [];
  }

  const attachments: ProviderInboundAttachment[] = [];
  const kind = (Object.keys(MEDIA_KINDS) as MediaKind[]).find((name) => content[name]);
  if (kind) {
    const media = content[kind] as {
      mimetype?: string | null;
      fileName?: string | null;
      fileLength?: unknown;
    };
    const size = toNumber(media.fileLength as number | null | undefined);
    attachments.push({
      mimeType: media.mimetype ?? MEDIA_KINDS[kind],
      ...(media.fileName ? { filename: media.fileName } : {}),
      ...(size > 0 ? { totalBytes: size } : {}),
      content: await context.download(message).then(
        (data) => ({ kind: 'bytes' as const, data }),
        (error: unknown) => ({
          kind: 'unavailable' as const,
          reason: `the media could not be downloaded from WhatsApp: ${String(error)}`,
        }),
      ),
    });
  }
  const text = textOf(content);
  if (!text && attachments.length === 0) return [];
  const quoted = contextInfoOf(content)?.stanzaId;
  return [
    {
      ...base,
      kind: 'message.inbound',
      upstreamEventId: `message:${key.id}`,
      externalId: key.id,
      from: fromMe ? context.phoneNumber : contact,
      to: fromMe ? (group ? context.phoneNumber : contact) : context.phoneNumber,
      isGroup: group,
      text,
      attachments,
      ...(quoted ? { replyToExternalId: quoted } : {}),
      ...(message.pushName && !fromMe ? { senderName: message.pushName } : {}),
      ...(fromMe ? { fromMe: true } : {}),
      ...(history ? { history: true } : {}),
    },
  ];
}

/** The delivery status a WhatsApp message status reports, or undefined for none. */
function deliveryStatus(
  status: number | null | undefined,
): ProviderStatusEvent['status'] | undefined {
  switch (status) {
    case Status.SERVER_ACK:
      return 'sent';
    case Status.DELIVERY_ACK:
      return 'delivered';
    case Status.READ:
    case Status.PLAYED:
      return 'read';
    case Status.ERROR:
      return 'failed';
    default:
      return undefined;
  }
}

/**
 * Maps `messages.update`: status changes of messages this session sent, and the edits and revokes
 * Baileys reports here besides the protocol message itself (both carry the same upstream event
 * id, so the gateway takes the change once).
 */
export function eventsOfUpdate(
  update: WAMessageUpdate,
  phoneNumber: string,
): ProviderInboundEvent[] {
  const changed = changeOfUpdate(update, phoneNumber);
  if (changed) return [changed];
  const status = deliveryStatus(update.update.status);
  const id = update.key.id;
  if (!status || !id || !update.key.fromMe) return [];
  const base = {
    kind: 'message.status' as const,
    channel: 'whatsapp' as const,
    occurredAt: new Date(),
    externalId: id,
    upstreamEventId: `status:${id}:${status}`,
  };
  return status === 'failed'
    ? [
        {
          ...base,
          status,
          error: { code: 'PROVIDER_TIMEOUT', message: 'WhatsApp reported the message failed' },
        },
      ]
    : [{ ...base, status }];
}

function changeOfUpdate(
  update: WAMessageUpdate,
  phoneNumber: string,
): ProviderMessageChangedEvent | undefined {
  const id = update.key.id;
  const chatJid = update.key.remoteJid;
  if (!id || !chatJid) return undefined;
  const base = {
    kind: 'message.changed' as const,
    channel: 'whatsapp' as const,
    occurredAt: occurredAt(update.update.messageTimestamp),
    externalId: id,
    from: update.key.fromMe ? phoneNumber : senderOf(update.key),
    to: phoneNumber,
    ...(isGroupJid(chatJid) ? { chatId: chatJid } : {}),
  };
  const edited = update.update.message?.editedMessage?.message;
  if (edited) {
    const text = textOf(normalizeMessageContent(edited) ?? edited);
    return { ...base, upstreamEventId: `edit:${id}:${text}`, change: { type: 'edited', text } };
  }
  if (
    update.update.message === null &&
    update.update.messageStubType === WAMessageStubType.REVOKE
  ) {
    return { ...base, upstreamEventId: `revoke:${id}`, change: { type: 'unsent' } };
  }
  return undefined;
}

/** Maps a group receipt (`message-receipt.update`) to a status event for that member. */
export function eventsOfReceipt(update: MessageUserReceiptUpdate): ProviderStatusEvent[] {
  const id = update.key.id;
  const member = update.receipt.userJid;
  if (!id || !member) return [];
  const read = update.receipt.readTimestamp ?? update.receipt.playedTimestamp;
  const status = read ? 'read' : update.receipt.receiptTimestamp ? 'delivered' : undefined;
  if (!status) return [];
  const recipient = addressOfJid(member);
  return [
    {
      kind: 'message.status',
      channel: 'whatsapp',
      occurredAt: occurredAt(read ?? update.receipt.receiptTimestamp),
      externalId: id,
      status,
      recipient,
      upstreamEventId: `receipt:${id}:${recipient}:${status}`,
    },
  ];
}

/** Maps `presence.update` to typing events (composing → start, paused → stop). */
export function eventsOfPresence(
  update: BaileysEventMap['presence.update'],
  phoneNumber: string,
): ProviderTypingEvent[] {
  const group = isGroupJid(update.id);
  return Object.entries(update.presences).flatMap(([participant, presence]) => {
    const state = presence.lastKnownPresence;
    if (state !== 'composing' && state !== 'paused') return [];
    return [
      {
        kind: 'typing' as const,
        channel: 'whatsapp' as const,
        occurredAt: new Date(),
        from: addressOfJid(participant),
        to: phoneNumber,
        ...(group ? { chatId: update.id } : {}),
        status: state === 'composing' ? ('start' as const) : ('stop' as const),
      },
    ];
  });
}

/** Maps `group-participants.update` to chat events, one per member. */
export function eventsOfParticipants(
  update: BaileysEventMap['group-participants.update'],
  phoneNumber: string,
): ProviderChatEvent[] {
  const actor = addressOfJid(update.authorPn ?? update.author ?? '');
  return update.participants.flatMap((participant, index): ProviderChatEvent[] => {
    const member = participant.phoneNumber ?? participant.id;
    const base = {
      kind: 'chat.event' as const,
      channel: 'whatsapp' as const,
      occurredAt: new Date(),
      externalId: `${update.id}:${update.action}:${member}:${index}`,
      chatId: update.id,
      actor,
      to: phoneNumber,
    };
    const address = addressOfJid(member);
    switch (update.action) {
      case 'add':
        return [{ ...base, action: 'participant.added', participant: address }];
      case 'remove':
        return [{ ...base, action: 'participant.left', participant: address }];
      case 'promote':
        return [
          { ...base, action: 'participant.role_changed', participant: address, role: 'admin' },
        ];
      case 'demote':
        return [{ ...base, action: 'participant.role_changed', participant: address, role: null }];
      default:
        return [];
    }
  });
}

/** Maps `groups.update` subject changes to `title.changed` chat events. */
export function eventsOfGroupUpdates(
  updates: BaileysEventMap['groups.update'],
  phoneNumber: string,
): ProviderChatEvent[] {
  return updates.flatMap((update): ProviderChatEvent[] => {
    if (!update.id || update.subject === undefined) return [];
    return [
      {
        kind: 'chat.event',
        channel: 'whatsapp',
        occurredAt: occurredAt(update.subjectTime),
        externalId: `${update.id}:subject:${update.subjectTime ?? update.subject}`,
        chatId: update.id,
        actor: addressOfJid(update.subjectOwnerPn ?? update.subjectOwner ?? update.owner ?? ''),
        to: phoneNumber,
        action: 'title.changed',
        title: update.subject,
      },
    ];
  });
}
