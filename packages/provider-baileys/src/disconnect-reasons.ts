import type { WhatsAppDisconnectReason } from '@switchboard/provider-kit';
import { DisconnectReason } from 'baileys';

/** What the session does after the socket closed. */
export type CloseAction =
  /** Open a new socket at once and report nothing: the normal restart after pairing (515). */
  | 'restart'
  /** Report `disconnected`, then reconnect with backoff. */
  | 'reconnect'
  /** Report `disconnected` and stay down until enabled again. */
  | 'stop'
  /** Wipe the credentials, report `disconnected` (logged out): the next pairing needs a QR. */
  | 'logout';

/** How one close of the socket is handled. */
export interface CloseDecision {
  /** What to do next. */
  action: CloseAction;
  /** The reason reported on `whatsapp.connection`. */
  reason: WhatsAppDisconnectReason;
  /** A line for operators. */
  explanation: string;
}

/** The HTTP-like status code Baileys closes with, from its Boom error. */
export function closeStatusCode(error: unknown): number | undefined {
  const output = (error as { output?: { statusCode?: unknown } } | undefined)?.output;
  return typeof output?.statusCode === 'number' ? output.statusCode : undefined;
}

/**
 * Maps every `DisconnectReason` (and WhatsApp's 405 for an outdated client version) to what the
 * session does. `pairing` is true while no account is linked yet: a 408 then means the QR codes
 * ran out, not a lost connection.
 */
export function decideOnClose(statusCode: number | undefined, pairing: boolean): CloseDecision {
  switch (statusCode) {
    case DisconnectReason.restartRequired:
      return { action: 'restart', reason: 'connection_lost', explanation: 'restart after pairing' };
    case DisconnectReason.loggedOut:
      return {
        action: 'logout',
        reason: 'logged_out',
        explanation: 'the phone unlinked this device: pair again with a new QR code',
      };
    case DisconnectReason.connectionReplaced:
      return {
        action: 'stop',
        reason: 'connection_replaced',
        explanation: 'another connection opened with these credentials; not reconnecting',
      };
    case DisconnectReason.timedOut:
      return pairing
        ? { action: 'stop', reason: 'qr_timeout', explanation: 'no QR code was scanned in time' }
        : {
            action: 'reconnect',
            reason: 'connection_lost',
            explanation: 'the connection timed out',
          };
    case DisconnectReason.connectionClosed:
      return {
        action: 'reconnect',
        reason: 'connection_lost',
        explanation: 'the connection closed',
      };
    case DisconnectReason.unavailableService:
      return {
        action: 'reconnect',
        reason: 'unavailable',
        explanation: 'WhatsApp is unavailable (503)',
      };
    case 405:
      return {
        action: 'stop',
        reason: 'unavailable',
        explanation:
          'WhatsApp refused this client version (405): set a current `version` in the instance config',
      };
    case DisconnectReason.badSession:
      return {
        action: 'stop',
        reason: 'bad_session',
        explanation: 'the stored session is corrupt: remove the session and pair again',
      };
    case DisconnectReason.multideviceMismatch:
      return {
        action: 'stop',
        reason: 'multidevice_mismatch',
        explanation: 'the phone does not have multi-device enabled',
      };
    case DisconnectReason.forbidden:
      return {
        action: 'stop',
        reason: 'forbidden',
        explanation: 'WhatsApp refused the account (403): it may be banned',
      };
    default:
      return {
        action: 'reconnect',
        reason: 'connection_lost',
        explanation: `the connection closed (${statusCode ?? 'no status'})`,
      };
  }
}
