import {
  type PairingCode,
  type QrCode,
  SIGNUP_CODES_WINDOW_MINUTES,
  type SignupCodes,
  type WhatsAppCheckResult,
  type WhatsAppSession,
  type WhatsAppSessionDeleted,
  type WhatsAppSessionState,
} from '@switchboard/contract';
import type { ProviderLogger, WhatsAppSessionPort } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { EventRecorder } from '../../events/event-recorder';
import type { ProviderHub } from '../../providers/provider-hub';
import type { SenderNumberView } from '../../store/number-repository';
import type { UnitOfWork } from '../../store/store';
import { callProvider } from '../chats/provider-call';
import { DomainError } from '../domain-error';
import { purgeExpiredSignupCodes } from '../inbound/signup-code-retention';
import { channelInstanceOf } from '../numbers/channel-instance';
import { applySessionChange } from './session-transition';
import { toSessionState, toSessionView } from './whatsapp-session-views';

/** How long verification codes are kept and listed: the spec's 15 minutes. */
const SIGNUP_CODES_WINDOW_MS = SIGNUP_CODES_WINDOW_MINUTES * 60 * 1000;

/** Dependencies of {@link WhatsAppSessionService}. */
export interface WhatsAppSessionServiceDeps {
  /** The store. */
  store: UnitOfWork;
  /** The running providers. */
  hub: Pick<ProviderHub, 'provider'>;
  /** Where `whatsapp.status` is recorded. */
  events: EventRecorder;
  /** The time source. */
  clock: Clock;
  /** Where start-up problems are reported. */
  logger: ProviderLogger;
}

/** An owned number with the session port of the instance serving its WhatsApp. */
interface OwnedSession {
  number: SenderNumberView;
  /** The instance carrying the number's WhatsApp (see {@link channelInstanceOf}). */
  instanceId: string;
  port: WhatsAppSessionPort;
}

/**
 * The WhatsApp pairing endpoints, one session per owned number. The provider drives the session
 * and reports every transition through the inbound sink, where it is stored and emitted as
 * `whatsapp.status`; these operations start the transitions and answer the stored state.
 */
export class WhatsAppSessionService {
  readonly #deps: WhatsAppSessionServiceDeps;

  /** Creates the service. */
  constructor(deps: WhatsAppSessionServiceDeps) {
    this.#deps = deps;
  }

  /** Every owned number with its session (`not_enabled` when none was started). */
  async list(customerId: string): Promise<WhatsAppSession[]> {
    const { store } = this.#deps;
    const sessions = new Map(
      (await store.whatsappSessions.listByCustomer(customerId)).map((s) => [s.phoneNumber, s]),
    );
    const numbers = await store.numbers.listByCustomer(customerId);
    return numbers.map((number) =>
      toSessionView(number.phoneNumber, sessions.get(number.phoneNumber)),
    );
  }

  /** Starts the session (idempotent): `connecting`, then `qr_pending` or `connected`. */
  async enable(customerId: string, phoneNumber: string): Promise<WhatsAppSession> {
    const { number, port } = await this.#session(customerId, phoneNumber);
    await callProvider(() => port.enable(number.phoneNumber));
    return this.#view(number);
  }

  /** The session's state. */
  async status(customerId: string, phoneNumber: string): Promise<WhatsAppSessionState> {
    const number = await this.#owned(customerId, phoneNumber);
    return toSessionState(
      await this.#deps.store.whatsappSessions.find(customerId, number.phoneNumber),
    );
  }

  /** The current QR code; only while `qr_pending`. */
  async qr(customerId: string, phoneNumber: string): Promise<QrCode> {
    const number = await this.#owned(customerId, phoneNumber);
    const session = await this.#deps.store.whatsappSessions.find(customerId, number.phoneNumber);
    if (session?.status !== 'qr_pending' || session.qrCode === null) {
      throw new DomainError(
        'INVALID_STATUS',
        `No QR code is pending for ${number.phoneNumber} (session ${session?.status ?? 'not_enabled'}); enable the session first`,
      );
    }
    return { qrCode: session.qrCode };
  }

  /** An 8-character pairing code, starting the session when needed; never on a paired number. */
  async pairingCode(
    customerId: string,
    phoneNumber: string,
    pairingPhoneNumber: string | undefined,
  ): Promise<PairingCode> {
    const { number, port } = await this.#session(customerId, phoneNumber);
    const session = await this.#deps.store.whatsappSessions.find(customerId, number.phoneNumber);
    if (session?.status === 'connected') {
      throw new DomainError('INVALID_STATUS', `${number.phoneNumber} is already connected`);
    }
    const { code } = await callProvider(() =>
      port.requestPairingCode(number.phoneNumber, pairingPhoneNumber),
    );
    return { pairingCode: code };
  }

  /** Drops the live session and keeps its credentials (idempotent). */
  async disconnect(customerId: string, phoneNumber: string): Promise<WhatsAppSession> {
    const { number, port } = await this.#session(customerId, phoneNumber);
    await callProvider(() => port.disconnect(number.phoneNumber));
    return this.#view(number);
  }

  /** Removes the session and its credentials (idempotent); the next pairing needs a fresh QR. */
  async delete(customerId: string, phoneNumber: string): Promise<WhatsAppSessionDeleted> {
    const { number, instanceId, port } = await this.#session(customerId, phoneNumber);
    await callProvider(() => port.remove(number.phoneNumber));
    // The provider reports `not_enabled` only for sessions it knew; a session stored before a
    // restart may be unknown to it, and must end too.
    await this.#deps.store.transaction((tx) =>
      applySessionChange(
        tx,
        this.#deps.events,
        { customerId, phoneNumber: number.phoneNumber, instanceId },
        { state: 'not_enabled' },
        new Date(this.#deps.clock.now()),
      ),
    );
    return { phoneNumber: number.phoneNumber, deleted: true };
  }

  /** Whether `recipient` is on WhatsApp, asked through the number's connected session. */
  async check(
    customerId: string,
    phoneNumber: string,
    recipient: string,
  ): Promise<WhatsAppCheckResult> {
    const { number, port } = await this.#session(customerId, phoneNumber);
    const session = await this.#deps.store.whatsappSessions.find(customerId, number.phoneNumber);
    if (session?.status !== 'connected') {
      throw new DomainError(
        'INVALID_STATUS',
        `${number.phoneNumber} has no connected WhatsApp session (${session?.status ?? 'not_enabled'}); pair it first`,
      );
    }
    const lookup = await callProvider(() => port.isOnWhatsApp(number.phoneNumber, recipient));
    return {
      phone: recipient,
      onWhatsApp: lookup.exists,
      ...(lookup.exists && lookup.jid !== undefined ? { jid: lookup.jid } : {}),
    };
  }

  /** The verification codes the number received in the last 15 minutes, newest first. */
  async signupCodes(customerId: string, phoneNumber: string): Promise<SignupCodes> {
    const number = await this.#owned(customerId, phoneNumber);
    const now = new Date(this.#deps.clock.now());
    await this.#deps.store.transaction((tx) => purgeExpiredSignupCodes(tx, now));
    const since = new Date(now.getTime() - SIGNUP_CODES_WINDOW_MS);
    const codes = await this.#deps.store.signupCodes.listSince(
      customerId,
      number.phoneNumber,
      since,
    );
    return {
      windowMinutes: SIGNUP_CODES_WINDOW_MINUTES,
      codes: codes.map((code) => ({
        code: code.code,
        messageId: code.messageId,
        from: code.fromAddress,
        channel: code.channel,
        receivedAt: code.receivedAt.toISOString(),
      })),
    };
  }

  /**
   * Brings stored sessions in line with the providers after a start: providers keep credentials,
   * not live connections, across restarts. Sessions stored as connected are reconnected; a
   * pairing that was in progress is over (its QR code died with the process), so it is recorded
   * `disconnected` with reason `server_restart`. Failures are logged, never fatal.
   */
  async resumeAfterStart(): Promise<void> {
    const { store, events, clock, logger } = this.#deps;
    const sessions = await store.whatsappSessions.listInStatus([
      'connected',
      'connecting',
      'qr_pending',
    ]);
    for (const session of sessions) {
      try {
        if (session.status === 'connected') {
          const provider = await this.#deps.hub.provider(session.instanceId);
          await provider.whatsappSessions?.enable(session.phoneNumber);
          continue;
        }
        await store.transaction((tx) =>
          applySessionChange(
            tx,
            events,
            session,
            { state: 'disconnected', reason: 'server_restart' },
            new Date(clock.now()),
          ),
        );
      } catch (error) {
        logger.warn(
          { err: error, phoneNumber: session.phoneNumber },
          'whatsapp session could not be resumed',
        );
      }
    }
  }

  async #view(number: SenderNumberView): Promise<WhatsAppSession> {
    const session = await this.#deps.store.whatsappSessions.find(
      number.customerId,
      number.phoneNumber,
    );
    return toSessionView(number.phoneNumber, session);
  }

  /** The customer's number; 403 `NUMBER_NOT_OWNED` for any other. */
  async #owned(customerId: string, phoneNumber: string): Promise<SenderNumberView> {
    const number = await this.#deps.store.numbers.findByAddress(customerId, phoneNumber);
    if (!number || number.phoneNumber !== phoneNumber) {
      throw new DomainError('NUMBER_NOT_OWNED', `${phoneNumber} is not one of your numbers`);
    }
    return number;
  }

  /**
   * The owned number and the session port of the instance carrying its WhatsApp (its own, or the
   * one its `channelInstances` names, as for sends); 400 when that instance does not do WhatsApp.
   */
  async #session(customerId: string, phoneNumber: string): Promise<OwnedSession> {
    const number = await this.#owned(customerId, phoneNumber);
    const instanceId = channelInstanceOf(number, 'whatsapp');
    const instance = await this.#deps.store.instances.findById(instanceId);
    const provider = instance?.channels.includes('whatsapp')
      ? await callProvider(() => this.#deps.hub.provider(instanceId))
      : undefined;
    if (!provider?.whatsappSessions) {
      throw new DomainError(
        'CHANNEL_NOT_SUPPORTED',
        `${number.phoneNumber} is served by an instance without WhatsApp sessions`,
      );
    }
    return { number, instanceId, port: provider.whatsappSessions };
  }
}
