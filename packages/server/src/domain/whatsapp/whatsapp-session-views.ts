import type { WhatsAppSession, WhatsAppSessionState } from '@switchboard/contract';
import type { WhatsAppSessionRecord } from '../../store/whatsapp-session-repository';

/**
 * The state object of a session (`GET …/status`): the current status, the JID once known, and
 * the last connection and disconnection with its reason, kept as history across reconnections.
 */
export function toSessionState(record: WhatsAppSessionRecord | undefined): WhatsAppSessionState {
  if (!record) return { status: 'not_enabled' };
  return {
    status: record.status,
    ...(record.jid === null ? {} : { jid: record.jid }),
    ...(record.lastConnectedAt === null
      ? {}
      : { lastConnectedAt: record.lastConnectedAt.toISOString() }),
    ...(record.lastDisconnectedAt === null
      ? {}
      : { lastDisconnectedAt: record.lastDisconnectedAt.toISOString() }),
    ...(record.disconnectReason === null ? {} : { disconnectReason: record.disconnectReason }),
  };
}

/** A session object: the owned number and its state. */
export function toSessionView(
  phoneNumber: string,
  record: WhatsAppSessionRecord | undefined,
): WhatsAppSession {
  return { phoneNumber, whatsapp: toSessionState(record) };
}
