import { isJidGroup, isLidUser, jidDecode, jidNormalizedUser } from 'baileys';

/**
 * The user JID of an E.164 number: `+14155550100` → `14155550100@s.whatsapp.net`.
 * @example phoneToJid('+14155550100') // '14155550100@s.whatsapp.net'
 */
export function phoneToJid(phoneNumber: string): string {
  return `${phoneNumber.replace(/^\+/, '')}@s.whatsapp.net`;
}

/**
 * The E.164 number of a phone JID (device suffixes dropped), or undefined for any other JID
 * (`@lid`, `@g.us`, broadcast).
 * @example jidToPhone('14155550100:12@s.whatsapp.net') // '+14155550100'
 */
export function jidToPhone(jid: string | null | undefined): string | undefined {
  const decoded = jidDecode(jid ?? undefined);
  if (decoded?.server !== 's.whatsapp.net' || !/^\d+$/.test(decoded.user)) {
    return undefined;
  }
  return `+${decoded.user}`;
}

/** The JID without its device part: `…:12@s.whatsapp.net` → `…@s.whatsapp.net`. */
export function normalizedJid(jid: string): string {
  return jidNormalizedUser(jid);
}

/** True for a group chat JID (`…@g.us`). */
export function isGroupJid(jid: string | null | undefined): boolean {
  return isJidGroup(jid ?? undefined) === true;
}

/** True for a linked-device id (`…@lid`). */
export function isLidJid(jid: string | null | undefined): boolean {
  return isLidUser(jid ?? undefined) === true;
}

/**
 * How the gateway names a WhatsApp user: E.164 for a phone JID, the `<id>@lid` handle for a
 * linked-device id whose number is not known, or the JID itself otherwise.
 */
export function addressOfJid(jid: string): string {
  return jidToPhone(jid) ?? normalizedJid(jid);
}

/**
 * The JID to address: a group or `@lid` JID as is, an E.164 number (or bare digits) as a phone
 * JID.
 */
export function jidOfAddress(address: string): string {
  if (address.includes('@')) return address;
  return phoneToJid(address);
}
