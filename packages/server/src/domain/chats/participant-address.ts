import { E164_PATTERN } from '@switchboard/contract';
import type { StoredParticipant } from '../../store/conversation-repository';

/** A WhatsApp phone JID: `<digits>@s.whatsapp.net`. */
const PHONE_JID = /^(\d{2,15})@s\.whatsapp\.net$/;

/** `+14155550100` → `14155550100@s.whatsapp.net` (the spec's normalized whatsapp participant). */
export function phoneJidOf(phoneNumber: string): string {
  return `${phoneNumber.replace(/^\+/, '')}@s.whatsapp.net`;
}

/** `14155550100@s.whatsapp.net` → `+14155550100`; null for any other handle (`@lid`). */
export function phoneOfJid(handle: string): string | null {
  const digits = PHONE_JID.exec(handle)?.[1];
  return digits === undefined ? null : `+${digits}`;
}

/**
 * True when `address` names `participant`: its handle, or on whatsapp the E.164 number of its
 * phone JID, so callers can use the number they know instead of the JID.
 */
export function isSameParticipant(participant: StoredParticipant, address: string): boolean {
  if (participant.handle === address) return true;
  if (E164_PATTERN.test(address)) return participant.handle === phoneJidOf(address);
  return false;
}

/** A plain address as a stored participant of an imessage chat. */
export function imessageParticipant(address: string): StoredParticipant {
  return { handle: address, isPhoneResolved: true, admin: null };
}

/** A WhatsApp linked-device handle. */
const LID_HANDLE = /^\d+@lid$/;

/**
 * A contact address as a member of a chat on `channel`: on whatsapp an E.164 number becomes its
 * phone JID and an `@lid` handle stays unresolved; on imessage the address is kept as is.
 */
export function participantOf(
  channel: 'imessage' | 'whatsapp',
  address: string,
): StoredParticipant {
  if (channel !== 'whatsapp') return imessageParticipant(address);
  if (LID_HANDLE.test(address)) return { handle: address, isPhoneResolved: false, admin: null };
  if (E164_PATTERN.test(address))
    return { handle: phoneJidOf(address), isPhoneResolved: true, admin: null };
  return { handle: address, isPhoneResolved: phoneOfJid(address) !== null, admin: null };
}
