import type { WhatsAppStatusData } from '@switchboard/contract';
import type { ProviderWhatsAppConnectionEvent } from '@switchboard/provider-kit';
import type { EventRecorder } from '../../events/event-recorder';
import type { UnitOfWork } from '../../store/store';
import type { WhatsAppSessionRecord } from '../../store/whatsapp-session-repository';

/** A session state change as the provider reports it, without the event envelope. */
export type SessionChange =
  | { state: 'connecting' }
  | { state: 'qr_pending'; qrCode: string }
  | { state: 'connected'; jid: string }
  | { state: 'disconnected'; reason: string }
  | { state: 'not_enabled' };

/** The change a `whatsapp.connection` provider event reports. */
export function changeOf(event: ProviderWhatsAppConnectionEvent): SessionChange {
  switch (event.state) {
    case 'qr_pending':
      return { state: 'qr_pending', qrCode: event.qrCode };
    case 'connected':
      return { state: 'connected', jid: event.jid };
    case 'disconnected':
      return { state: 'disconnected', reason: event.reason };
    default:
      return { state: event.state };
  }
}

/** Who the session belongs to. */
export interface SessionOwner {
  /** The customer. */
  customerId: string;
  /** The owned number, E.164. */
  phoneNumber: string;
  /** The instance running the session. */
  instanceId: string;
}

/** A session without credentials: never paired, or unlinked (nothing learned is kept). */
const NOT_ENABLED = {
  status: 'not_enabled',
  jid: null,
  qrCode: null,
  disconnectReason: null,
  lastConnectedAt: null,
  lastDisconnectedAt: null,
} as const satisfies Partial<WhatsAppSessionRecord>;

/**
 * Applies a state change to the stored session and records `whatsapp.status` (stream only), in
 * `tx`. A change that changes nothing (a redelivered event, the same QR again) records nothing:
 * the event fires on transitions and on each new QR code.
 * @returns the session as stored now.
 */
export async function applySessionChange(
  tx: UnitOfWork,
  events: EventRecorder,
  owner: SessionOwner,
  change: SessionChange,
  at: Date,
): Promise<WhatsAppSessionRecord> {
  const current = await tx.whatsappSessions.find(owner.customerId, owner.phoneNumber);
  const base: WhatsAppSessionRecord = current ?? {
    customerId: owner.customerId,
    phoneNumber: owner.phoneNumber,
    instanceId: owner.instanceId,
    ...NOT_ENABLED,
    updatedAt: at,
  };
  if (isNoChange(base, change)) return base;
  const next = nextRecord({ ...base, instanceId: owner.instanceId, updatedAt: at }, change, at);
  await tx.whatsappSessions.save(next);
  await events.record(tx, {
    customerId: owner.customerId,
    type: 'whatsapp.status',
    correlationId: '',
    data: statusData(owner, change),
  });
  return next;
}

function isNoChange(current: WhatsAppSessionRecord, change: SessionChange): boolean {
  if (current.status !== change.state) return false;
  switch (change.state) {
    case 'qr_pending':
      return current.qrCode === change.qrCode;
    case 'connected':
      return current.jid === change.jid;
    case 'disconnected':
      return current.disconnectReason === change.reason;
    default:
      return true;
  }
}

function nextRecord(
  record: WhatsAppSessionRecord,
  change: SessionChange,
  at: Date,
): WhatsAppSessionRecord {
  switch (change.state) {
    case 'connecting':
      return { ...record, status: 'connecting', qrCode: null };
    case 'qr_pending':
      return { ...record, status: 'qr_pending', qrCode: change.qrCode };
    case 'connected':
      return { ...record, status: 'connected', jid: change.jid, qrCode: null, lastConnectedAt: at };
    case 'disconnected':
      return {
        ...record,
        status: 'disconnected',
        qrCode: null,
        disconnectReason: change.reason,
        lastDisconnectedAt: at,
      };
    case 'not_enabled':
      // The credentials are gone: so is everything learned from them.
      return { ...record, ...NOT_ENABLED };
  }
}

/** The `whatsapp.status` data, in the contract's key order. */
function statusData(owner: SessionOwner, change: SessionChange): WhatsAppStatusData {
  const { phoneNumber, customerId } = owner;
  switch (change.state) {
    case 'qr_pending':
      return { phoneNumber, status: 'qr_pending', qrCode: change.qrCode, customerId };
    case 'connected':
      return { phoneNumber, status: 'connected', jid: change.jid, customerId };
    case 'disconnected':
      return { phoneNumber, status: 'disconnected', disconnectReason: change.reason, customerId };
    default:
      return { phoneNumber, status: change.state, customerId };
  }
}
