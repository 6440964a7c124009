import type { WAMessage } from 'baileys';

/**
 * Names a WhatsApp user as the gateway does: the phone number when known (a phone JID, the
 * alternate JID WhatsApp sent beside an `@lid`, or the mapping Baileys stored for it), else the
 * `@lid` handle.
 */
export type JidNamer = (jid: string, alt?: string | null) => Promise<string>;

/** What mapping a session's upstream events needs. */
export interface InboundContext {
  /** The owned number of the session, E.164. */
  phoneNumber: string;
  /** The bytes of a received media message. */
  download(message: WAMessage): Promise<Uint8Array>;
  /** Names a user. */
  name: JidNamer;
}
