import type { WhatsAppSessionStatus } from '@switchboard/contract';
import type { WhatsAppDisconnectReason } from './provider-events';

/** The live state of one owned number's WhatsApp session, as the provider sees it now. */
export interface WhatsAppSessionSnapshot {
  /** The owned number, E.164. */
  phoneNumber: string;
  /** The session state. */
  status: WhatsAppSessionStatus;
  /** The current raw QR string, while `qr_pending`. */
  qrCode?: string;
  /** The pairing code issued for this pairing, while one is pending. */
  pairingCode?: string;
  /** The linked account, `<digits>@s.whatsapp.net`, once known. */
  jid?: string;
  /** Why the session last disconnected, while `disconnected`. */
  disconnectReason?: WhatsAppDisconnectReason;
}

/** Whether an address has a WhatsApp account. */
export interface WhatsAppLookup {
  /** The address asked about. */
  address: string;
  /** True when the address is on WhatsApp. */
  exists: boolean;
  /** Its JID, when it exists. */
  jid?: string;
}

/**
 * The WhatsApp session operations, one session per owned number: an optional capability of a
 * provider that serves `whatsapp` by linking devices (Baileys, the simulator). Every transition is
 * also reported through the event sink as a `whatsapp.connection` event; these methods answer the
 * state right after the call.
 */
export interface WhatsAppSessionPort {
  /**
   * Starts the session of `phoneNumber`: with stored credentials it reconnects, otherwise it
   * walks to `qr_pending`. Enabling a live session changes nothing.
   */
  enable(phoneNumber: string): Promise<WhatsAppSessionSnapshot>;
  /**
   * Asks for an 8-character pairing code for `phoneNumber` (starting the session if needed), to
   * be typed on the phone of `pairingPhoneNumber` (defaults to `phoneNumber`).
   */
  requestPairingCode(
    phoneNumber: string,
    pairingPhoneNumber?: string,
  ): Promise<{ code: string; snapshot: WhatsAppSessionSnapshot }>;
  /** Drops the live session, keeping its credentials, so `enable` reconnects without a QR. */
  disconnect(phoneNumber: string): Promise<WhatsAppSessionSnapshot>;
  /** Logs the session out and wipes its credentials: the next pairing needs a fresh QR. */
  remove(phoneNumber: string): Promise<void>;
  /** The session's current state. */
  getSession(phoneNumber: string): Promise<WhatsAppSessionSnapshot>;
  /** Whether `address` (E.164) is on WhatsApp, asked through the session of `phoneNumber`. */
  isOnWhatsApp(phoneNumber: string, address: string): Promise<WhatsAppLookup>;
}
