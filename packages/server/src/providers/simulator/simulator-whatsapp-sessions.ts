import type {
  WhatsAppDisconnectReason,
  WhatsAppLookup,
  WhatsAppSessionPort,
  WhatsAppSessionSnapshot,
} from '@switchboard/provider-kit';
import { ProviderError } from '@switchboard/provider-kit';
import { behaviourOf, isReachable } from './recipient-behaviour';
import { phoneToJid } from './simulated-addresses';
import { newPairingCode, newQrCode } from './simulated-ids';
import type { SimulatorContext } from './simulator-context';

/** When QR codes rotate and give up. */
export interface SimulatorQrTiming {
  /** Steps a QR code stays valid before a new one replaces it. */
  qrRotationSteps: number;
  /** QR codes shown before the pairing gives up (`disconnected`, reason `qr_timeout`). */
  qrMaxRotations: number;
}

/** A session that is not `not_enabled`. */
interface Session {
  status: 'connecting' | 'qr_pending' | 'connected' | 'disconnected';
  qrCode?: string;
  qrShown: number;
  pairingCode?: string;
  /** The account a pairing code links, when it is not the owned number. */
  pairingPhoneNumber?: string;
  jid?: string;
  disconnectReason?: WhatsAppDisconnectReason;
  cancelTimer?: () => void;
}

/** What the simulator keeps of a paired session: the credentials Baileys would store. */
interface StoredCredentials {
  jid: string;
  pairedAt: string;
}

const CREDENTIALS_PREFIX = 'whatsapp/credentials/';

/**
 * Simulated WhatsApp sessions, one per owned number: enable → connecting → qr_pending (a QR that
 * rotates every `qrRotationSteps`) → a sandbox scan or pairing-code entry → connecting →
 * connected. Credentials go to the instance's state store, so `disconnect` and a restart keep
 * them and `remove` wipes them.
 */
export class SimulatorWhatsAppSessions implements WhatsAppSessionPort {
  readonly #context: SimulatorContext;
  readonly #timing: SimulatorQrTiming;
  readonly #sessions = new Map<string, Session>();

  /** Sessions simulated in `context`. */
  constructor(context: SimulatorContext, timing: SimulatorQrTiming) {
    this.#context = context;
    this.#timing = timing;
  }

  /** Starts the session: reconnects with stored credentials, otherwise shows a QR after a step. */
  async enable(phoneNumber: string): Promise<WhatsAppSessionSnapshot> {
    this.#context.assertStarted();
    const existing = this.#sessions.get(phoneNumber);
    if (existing && existing.status !== 'disconnected') return snapshot(phoneNumber, existing);
    const credentials = await this.#credentials(phoneNumber);
    const session: Session = { status: 'connecting', qrShown: 0 };
    this.#sessions.set(phoneNumber, session);
    await this.#emitConnecting(phoneNumber);
    session.cancelTimer = this.#context.after(1, () =>
      credentials
        ? this.#connect(phoneNumber, session, credentials.jid)
        : this.#showQr(phoneNumber),
    );
    return snapshot(phoneNumber, session);
  }

  /** Issues a pairing code, starting the session first when it is not live. */
  async requestPairingCode(
    phoneNumber: string,
    pairingPhoneNumber?: string,
  ): Promise<{ code: string; snapshot: WhatsAppSessionSnapshot }> {
    this.#context.assertStarted();
    if (await this.#credentials(phoneNumber)) {
      throw new ProviderError(
        'INVALID_STATUS',
        `${phoneNumber} is already paired: enable reconnects it without a code`,
      );
    }
    const live = this.#sessions.get(phoneNumber);
    if (!live || live.status === 'disconnected') await this.enable(phoneNumber);
    const session = this.#sessions.get(phoneNumber);
    if (!session) throw new ProviderError('INTERNAL_ERROR', 'the session vanished while starting');
    const code = newPairingCode();
    session.pairingCode = code;
    if (pairingPhoneNumber !== undefined) session.pairingPhoneNumber = pairingPhoneNumber;
    await this.#context.emit({
      kind: 'whatsapp.pairing_code',
      channel: 'whatsapp',
      phoneNumber,
      code,
      occurredAt: this.#context.occurredAt(),
    });
    return { code, snapshot: snapshot(phoneNumber, session) };
  }

  /** Drops the live session and keeps its credentials. */
  async disconnect(phoneNumber: string): Promise<WhatsAppSessionSnapshot> {
    this.#context.assertStarted();
    const session = this.#sessions.get(phoneNumber);
    if (session && session.status !== 'disconnected') {
      await this.#drop(phoneNumber, session, 'disconnected_by_api');
    }
    return this.getSession(phoneNumber);
  }

  /** Ends the session and wipes its credentials. */
  async remove(phoneNumber: string): Promise<void> {
    this.#context.assertStarted();
    const session = this.#sessions.get(phoneNumber);
    const credentials = await this.#credentials(phoneNumber);
    session?.cancelTimer?.();
    this.#sessions.delete(phoneNumber);
    await this.#context.state.delete(CREDENTIALS_PREFIX + phoneNumber);
    if (!session && !credentials) return;
    await this.#context.emit({
      kind: 'whatsapp.connection',
      channel: 'whatsapp',
      phoneNumber,
      state: 'not_enabled',
      occurredAt: this.#context.occurredAt(),
    });
  }

  /** The session's state: live, or `disconnected` with stored credentials, or `not_enabled`. */
  async getSession(phoneNumber: string): Promise<WhatsAppSessionSnapshot> {
    const session = this.#sessions.get(phoneNumber);
    if (session) return snapshot(phoneNumber, session);
    const credentials = await this.#credentials(phoneNumber);
    return credentials
      ? { phoneNumber, status: 'disconnected', jid: credentials.jid }
      : { phoneNumber, status: 'not_enabled' };
  }

  /** Whether `address` is on WhatsApp, by the recipient table (DD 60–69 and non-magic numbers). */
  async isOnWhatsApp(_phoneNumber: string, address: string): Promise<WhatsAppLookup> {
    const exists = isReachable(behaviourOf(address), 'whatsapp');
    return exists ? { address, exists, jid: phoneToJid(address) } : { address, exists };
  }

  /** Sandbox: the phone scanned the current QR code. */
  async scanQr(phoneNumber: string): Promise<WhatsAppSessionSnapshot> {
    const session = this.#sessions.get(phoneNumber);
    if (session?.status !== 'qr_pending') {
      throw new ProviderError(
        'INVALID_STATUS',
        `${phoneNumber} has no QR code to scan (session ${session?.status ?? 'not_enabled'})`,
      );
    }
    return this.#pair(phoneNumber, session, phoneNumber);
  }

  /** Sandbox: someone typed `code` on the phone. */
  async enterPairingCode(phoneNumber: string, code: string): Promise<WhatsAppSessionSnapshot> {
    const session = this.#sessions.get(phoneNumber);
    if (
      !session?.pairingCode ||
      (session.status !== 'qr_pending' && session.status !== 'connecting')
    ) {
      throw new ProviderError('INVALID_STATUS', `${phoneNumber} has no pairing code pending`);
    }
    const typed = code.replace(/[\s-]/g, '').toUpperCase();
    if (typed !== session.pairingCode) {
      throw new ProviderError('VALIDATION_ERROR', 'The pairing code does not match');
    }
    return this.#pair(phoneNumber, session, session.pairingPhoneNumber ?? phoneNumber);
  }

  /** Sandbox: the connection dropped; `logged_out` also wipes the credentials. */
  async dropConnection(
    phoneNumber: string,
    reason: WhatsAppDisconnectReason,
  ): Promise<WhatsAppSessionSnapshot> {
    const session = this.#sessions.get(phoneNumber);
    if (!session || session.status === 'disconnected') {
      throw new ProviderError('INVALID_STATUS', `${phoneNumber} has no live session`);
    }
    if (reason === 'logged_out') {
      await this.#context.state.delete(CREDENTIALS_PREFIX + phoneNumber);
    }
    await this.#drop(phoneNumber, session, reason);
    return snapshot(phoneNumber, session);
  }

  /** Forgets every live session (the simulator stopped); credentials stay stored. */
  reset(): void {
    for (const session of this.#sessions.values()) session.cancelTimer?.();
    this.#sessions.clear();
  }

  async #pair(
    phoneNumber: string,
    session: Session,
    account: string,
  ): Promise<WhatsAppSessionSnapshot> {
    session.cancelTimer?.();
    session.status = 'connecting';
    delete session.qrCode;
    delete session.pairingCode;
    await this.#emitConnecting(phoneNumber);
    const jid = phoneToJid(account);
    session.cancelTimer = this.#context.after(1, () => {
      const credentials: StoredCredentials = {
        jid,
        pairedAt: this.#context.occurredAt().toISOString(),
      };
      // The credentials are written before `connected` is reported, as Baileys persists
      // `creds.update` before the connection opens.
      this.#context.state
        .set(CREDENTIALS_PREFIX + phoneNumber, JSON.stringify(credentials))
        .then(() => this.#connect(phoneNumber, session, jid))
        .catch(() => this.#drop(phoneNumber, session, 'bad_session'));
    });
    return snapshot(phoneNumber, session);
  }

  #connect(phoneNumber: string, session: Session, jid: string): void {
    if (this.#sessions.get(phoneNumber) !== session || session.status !== 'connecting') return;
    session.status = 'connected';
    session.jid = jid;
    delete session.cancelTimer;
    this.#context.fire({
      kind: 'whatsapp.connection',
      channel: 'whatsapp',
      phoneNumber,
      state: 'connected',
      jid,
      occurredAt: this.#context.occurredAt(),
    });
  }

  #showQr(phoneNumber: string): void {
    const session = this.#sessions.get(phoneNumber);
    if (!session || (session.status !== 'connecting' && session.status !== 'qr_pending')) return;
    if (session.qrShown >= this.#timing.qrMaxRotations) {
      this.#drop(phoneNumber, session, 'qr_timeout').catch(() => undefined);
      return;
    }
    session.status = 'qr_pending';
    session.qrCode = newQrCode();
    session.qrShown += 1;
    this.#context.fire({
      kind: 'whatsapp.connection',
      channel: 'whatsapp',
      phoneNumber,
      state: 'qr_pending',
      qrCode: session.qrCode,
      occurredAt: this.#context.occurredAt(),
    });
    session.cancelTimer = this.#context.after(this.#timing.qrRotationSteps, () =>
      this.#showQr(phoneNumber),
    );
  }

  async #drop(
    phoneNumber: string,
    session: Session,
    reason: WhatsAppDisconnectReason,
  ): Promise<void> {
    session.cancelTimer?.();
    delete session.cancelTimer;
    delete session.qrCode;
    delete session.pairingCode;
    session.status = 'disconnected';
    session.disconnectReason = reason;
    await this.#context.emit({
      kind: 'whatsapp.connection',
      channel: 'whatsapp',
      phoneNumber,
      state: 'disconnected',
      reason,
      occurredAt: this.#context.occurredAt(),
    });
  }

  async #emitConnecting(phoneNumber: string): Promise<void> {
    await this.#context.emit({
      kind: 'whatsapp.connection',
      channel: 'whatsapp',
      phoneNumber,
      state: 'connecting',
      occurredAt: this.#context.occurredAt(),
    });
  }

  async #credentials(phoneNumber: string): Promise<StoredCredentials | undefined> {
    const raw = await this.#context.state.get(CREDENTIALS_PREFIX + phoneNumber);
    return raw === undefined ? undefined : (JSON.parse(raw) as StoredCredentials);
  }
}

function snapshot(phoneNumber: string, session: Session): WhatsAppSessionSnapshot {
  return {
    phoneNumber,
    status: session.status,
    ...(session.qrCode === undefined ? {} : { qrCode: session.qrCode }),
    ...(session.pairingCode === undefined ? {} : { pairingCode: session.pairingCode }),
    ...(session.jid === undefined ? {} : { jid: session.jid }),
    ...(session.status === 'disconnected' && session.disconnectReason !== undefined
      ? { disconnectReason: session.disconnectReason }
      : {}),
  };
}
