import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { type Channel, PAIRING_CODE_LENGTH } from '@switchboard/contract';

/**
 * Identifiers shaped like the real upstreams' ones, so that sandbox payloads look like production
 * payloads: a GUID for iMessage (BlueBubbles), an `SM…` SID for SMS (Twilio), a `3EB0…` key id for
 * WhatsApp (Baileys).
 */
export function newExternalId(channel: Channel): string {
  switch (channel) {
    case 'imessage':
      return randomUUID().toUpperCase();
    case 'sms':
      return `SM${randomBytes(16).toString('hex')}`;
    case 'whatsapp':
      return `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
  }
}

/** A digit string of `length` random digits. */
function digits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

/** A new group chat id: `iMessage;+;chat<18 digits>` or `120363<12 digits>@g.us`. */
export function newGroupChatId(channel: Channel): string {
  return channel === 'whatsapp' ? `120363${digits(12)}@g.us` : `iMessage;+;chat${digits(18)}`;
}

/** A new attachment GUID as BlueBubbles writes them. */
export function newAttachmentGuid(): string {
  return `at_0_${randomUUID().toUpperCase()}`;
}

/** A new FaceTime call id. */
export function newCallUuid(): string {
  return randomUUID().toUpperCase();
}

/**
 * A new raw WhatsApp QR string, in the shape WhatsApp Web encodes: a reference, then the noise
 * key, identity key and advertising secret in base64, comma-separated.
 */
export function newQrCode(): string {
  const b64 = (bytes: number): string => randomBytes(bytes).toString('base64');
  return `2@${b64(36)},${b64(32)},${b64(32)},${b64(32)}`;
}

/** Letters and digits that cannot be misread for one another (no 0/O, 1/I). */
const PAIRING_ALPHABET = 'ABCDEFGHJKLMNPQRSTVWXYZ23456789';

/** A new 8-character pairing code. */
export function newPairingCode(): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) {
    code += PAIRING_ALPHABET.charAt(randomInt(PAIRING_ALPHABET.length));
  }
  return code;
}
