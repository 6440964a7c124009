import { type Channel, GROUP_JID_PATTERN } from '@switchboard/contract';
import type { ProviderDestination, ProviderParticipant } from '@switchboard/provider-kit';
import {
  behaviourOf,
  GROUP_CHAT,
  OTHER_NUMBER,
  type RecipientBehaviour,
} from './recipient-behaviour';

/** A direct iMessage/SMS chat GUID as BlueBubbles writes it: `iMessage;-;+1555…`, `any;-;a@b.c`. */
const DIRECT_CHAT_GUID = /^(?:iMessage|SMS|any);-;(.+)$/;
/** A group chat GUID: `iMessage;+;chat…`. */
const GROUP_CHAT_GUID = /^(?:iMessage|SMS|any);\+;.+$/;
/** A WhatsApp phone JID. */
const PHONE_JID = /^(\d{2,15})@s\.whatsapp\.net$/;
/** A WhatsApp linked-device id. */
const LID = /^\d+@lid$/;

/** `+14155550100` → `14155550100@s.whatsapp.net`. */
export function phoneToJid(phoneNumber: string): string {
  return `${phoneNumber.replace(/^\+/, '')}@s.whatsapp.net`;
}

/** `14155550100@s.whatsapp.net` → `+14155550100`, or null for any other value. */
function jidToPhone(jid: string): string | null {
  const match = PHONE_JID.exec(jid);
  return match?.[1] === undefined ? null : `+${match[1]}`;
}

/** True for a WhatsApp `<id>@lid` handle. */
export function isLid(handle: string): boolean {
  return LID.test(handle);
}

/** True when a chat id names a group (`iMessage;+;…` or `<id>@g.us`). */
export function isGroupChatId(chatId: string): boolean {
  return GROUP_CHAT_GUID.test(chatId) || GROUP_JID_PATTERN.test(chatId);
}

/** The contact address of a direct chat id, or null for a group or an unknown form. */
export function directChatAddress(chatId: string): string | null {
  const guid = DIRECT_CHAT_GUID.exec(chatId);
  if (guid?.[1] !== undefined) return guid[1];
  return jidToPhone(chatId);
}

/** The provider chat id of a direct chat with `address`, as the upstream of `channel` names it. */
export function directChatId(channel: Channel, address: string): string | undefined {
  if (channel === 'imessage') return `iMessage;-;${address}`;
  if (channel === 'whatsapp') return phoneToJid(address);
  return undefined;
}

/** How a destination behaves: its address's table row, or the group row for group chats. */
export function behaviourOfDestination(destination: ProviderDestination): RecipientBehaviour {
  const address =
    destination.type === 'address' ? destination.address : directChatAddress(destination.chatId);
  if (address !== null) {
    if (isLid(address)) return OTHER_NUMBER;
    return behaviourOf(jidToPhone(address) ?? address);
  }
  if (destination.type === 'chat' && isGroupChatId(destination.chatId)) return GROUP_CHAT;
  return behaviourOf('');
}

/** A printable name of a destination, for error messages. */
export function describeDestination(destination: ProviderDestination): string {
  return destination.type === 'address' ? destination.address : destination.chatId;
}

/**
 * A group member as the upstream of `channel` reports it: WhatsApp turns phone numbers into phone
 * JIDs and keeps `@lid` handles unresolved; iMessage keeps the address.
 */
export function toParticipant(channel: Channel, address: string): ProviderParticipant {
  if (channel !== 'whatsapp') return { handle: address, isPhoneResolved: true, admin: null };
  if (isLid(address)) return { handle: address, isPhoneResolved: false, admin: null };
  const handle = jidToPhone(address) ? address : phoneToJid(address);
  return { handle, isPhoneResolved: true, admin: null };
}
