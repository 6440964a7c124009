import type {
  ProviderChatEvent,
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
import { attachmentsOf } from './baileys-media';
import type { InboundContext, JidNamer } from './inbound-context';
import { addressOfJid, isGroupJid, isLidJid, jidToPhone } from './jids';
import { unmodelledNote } from './unmodelled-content';
import { failureOfAck } from './whatsapp-errors';

export type { InboundContext, JidNamer } from './inbound-context';

/**
 * A {@link JidNamer} over Baileys' LID mapping store (`signalRepository.lidMapping`): a `@lid`
 * without a phone number beside it is looked up there (Baileys answers from what WhatsApp
 * shared; it never asks the network for a LID's number).
 */
export function jidNamer(phoneOfLid: (lid: string) => Promise<string | null>): JidNamer {
  return async (jid, alt) => {
    if (!isLidJid(jid)) return addressOfJid(jid);
    const altPhone = jidToPhone(alt);
    if (altPhone) return altPhone;
    const mapped = await phoneOfLid(jid).catch(() => null);
    return jidToPhone(mapped) ?? addressOfJid(jid);
  };
}

const Status = proto.WebMessageInfo.Status;
const ProtocolType = proto.Message.ProtocolMessage.Type;

function occurredAt(seconds: unknown): Date {
  const value = toNumber(seconds as number | null | undefined);
  return value > 0 ? new Date(value * 1000) : new Date();
}

/** Who a message key comes from, as the gateway names them (see {@link JidNamer}). */
function senderOf(key: WAMessageKey, name: JidNamer): Promise<string> {
  const group = isGroupJid(key.remoteJid);
  const jid = (group ? key.participant : key.remoteJid) ?? '';
  return name(jid, group ? key.participantAlt : key.remoteJidAlt);
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

/** What every event of one message shares: the channel, the time, and in a group the chat. */
interface MessageEventBase {
  channel: 'whatsapp';
  occurredAt: Date;
  chatId?: string;
}

/**
 * Maps one message of `messages.upsert` (`notify` or `append`, alike) to the gateway's events: a
 * message (text, quote, media), a reaction, an edit or a revoke.
 */
export async function eventsOfMessage(
  message: WAMessage,
  context: InboundContext,
): Promise<ProviderInboundEvent[]> {
  const key = message.key;
  const content = normalizeMessageContent(message.message);
  if (!content || !key.id || !key.remoteJid || key.remoteJid === 'status@broadcast') return [];
  const chatJid = key.remoteJid;
  const group = isGroupJid(chatJid);
  const fromMe = key.fromMe === true;
  const contact = await senderOf(key, context.name);
  const when = occurredAt(message.messageTimestamp);
  const base: MessageEventBase = {
    channel: 'whatsapp' as const,
    occurredAt: when,
    ...(group ? { chatId: chatJid } : {}),
  };

  if (content.reactionMessage) {
    if (fromMe) return [];
    return eventsOfReaction(content.reactionMessage, key.id, contact, context, base);
  }
  const protocol = content.protocolMessage;
  if (protocol)
    return eventsOfProtocol(protocol, fromMe ? context.phoneNumber : contact, context, base);

  const attachments = await attachmentsOf(content, message, context);
  // A kind the gateway does not model arrives as text saying what it was, never dropped.
  const text = textOf(content) || (attachments.length === 0 ? unmodelledNote(content) : '') || '';
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
    },
  ];
}

/** A contact's reaction (an empty emoji removes it); none when it names no message. */
function eventsOfReaction(
  reaction: proto.Message.IReactionMessage,
  id: string,
  contact: string,
  context: InboundContext,
  base: MessageEventBase,
): ProviderInboundEvent[] {
  const target = reaction.key?.id;
  if (!target) return [];
  const emoji = reaction.text ?? '';
  return [
    {
      ...base,
      kind: 'message.reaction',
      upstreamEventId: `reaction:${id}`,
      externalId: id,
      from: contact,
      to: context.phoneNumber,
      targetExternalId: target,
      reaction: { type: 'emoji', emoji },
      removed: emoji === '',
    },
  ];
}

/** A protocol message: a revoke (unsent) or an edit; none for the other kinds. */
function eventsOfProtocol(
  protocol: proto.Message.IProtocolMessage,
  from: string,
  context: InboundContext,
  base: MessageEventBase,
): ProviderInboundEvent[] {
  const target = protocol.key?.id;
  if (!target) return [];
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
export async function eventsOfUpdate(
  update: WAMessageUpdate,
  phoneNumber: string,
  name: JidNamer,
): Promise<ProviderInboundEvent[]> {
  const changed = await changeOfUpdate(update, phoneNumber, name);
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
  // A negative ack of WhatsApp's server: its code rides in the stub parameters.
  return status === 'failed'
    ? [{ ...base, status, error: failureOfAck(update.update.messageStubParameters?.[0]) }]
    : [{ ...base, status }];
}

async function changeOfUpdate(
  update: WAMessageUpdate,
  phoneNumber: string,
  name: JidNamer,
): Promise<ProviderMessageChangedEvent | undefined> {
  const id = update.key.id;
  const chatJid = update.key.remoteJid;
  if (!id || !chatJid) return undefined;
  const base = {
    kind: 'message.changed' as const,
    channel: 'whatsapp' as const,
    occurredAt: occurredAt(update.update.messageTimestamp),
    externalId: id,
    from: update.key.fromMe ? phoneNumber : await senderOf(update.key, name),
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
export async function eventsOfReceipt(
  update: MessageUserReceiptUpdate,
  name: JidNamer,
): Promise<ProviderStatusEvent[]> {
  const id = update.key.id;
  const member = update.receipt.userJid;
  if (!id || !member) return [];
  const read = update.receipt.readTimestamp ?? update.receipt.playedTimestamp;
  const status = read ? 'read' : update.receipt.receiptTimestamp ? 'delivered' : undefined;
  if (!status) return [];
  const recipient = await name(member);
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

/**
 * Maps `presence.update` to typing events. Baileys reports a contact typing as `composing` (or
 * `recording` for a voice note) and their pause as `available`, the same value as "online"
 * (`lib/Socket/chats.js:676-683` of baileys@7.0.0-rc14): so `available` or `unavailable` is a
 * stop only for someone `typing` holds as typing (chat and participant), which this updates.
 */
export async function eventsOfPresence(
  update: BaileysEventMap['presence.update'],
  phoneNumber: string,
  name: JidNamer,
  typing: Set<string>,
): Promise<ProviderTypingEvent[]> {
  const group = isGroupJid(update.id);
  const events: ProviderTypingEvent[] = [];
  for (const [participant, presence] of Object.entries(update.presences)) {
    const who = `${update.id} ${participant}`;
    const started =
      presence.lastKnownPresence === 'composing' || presence.lastKnownPresence === 'recording';
    if (!started && !typing.has(who)) continue;
    if (started) typing.add(who);
    else typing.delete(who);
    events.push({
      kind: 'typing' as const,
      channel: 'whatsapp' as const,
      occurredAt: new Date(),
      from: await name(participant),
      to: phoneNumber,
      ...(group ? { chatId: update.id } : {}),
      status: started ? 'start' : 'stop',
    });
  }
  return events;
}

/** Maps `group-participants.update` to chat events, one per member. */
export async function eventsOfParticipants(
  update: BaileysEventMap['group-participants.update'],
  phoneNumber: string,
  name: JidNamer,
): Promise<ProviderChatEvent[]> {
  const actor = await name(update.author ?? update.authorPn ?? '', update.authorPn);
  const addresses: string[] = [];
  for (const participant of update.participants) {
    addresses.push(await name(participant.id, participant.phoneNumber));
  }
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
    const address = addresses[index] ?? addressOfJid(member);
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

/**
 * Maps `groups.update` subject changes to `title.changed` chat events. A rename someone made
 * carries its `author` (Baileys' group stub); an update without one is Baileys refetching every
 * group's metadata after WhatsApp marked them dirty, which renames nothing.
 */
export function eventsOfGroupUpdates(
  updates: BaileysEventMap['groups.update'],
  phoneNumber: string,
): ProviderChatEvent[] {
  return updates.flatMap((update): ProviderChatEvent[] => {
    const author = update.authorPn ?? update.author;
    if (!update.id || update.subject === undefined || !author) return [];
    return [
      {
        kind: 'chat.event',
        channel: 'whatsapp',
        occurredAt: occurredAt(update.subjectTime),
        externalId: `${update.id}:subject:${update.subjectTime ?? update.subject}`,
        chatId: update.id,
        actor: addressOfJid(author),
        to: phoneNumber,
        action: 'title.changed',
        title: update.subject,
      },
    ];
  });
}
