import type {
  ProviderLogger,
  WhatsAppLookup,
  WhatsAppSessionPort,
  WhatsAppSessionSnapshot,
} from '@switchboard/provider-kit';
import { ProviderError } from '@switchboard/provider-kit';
import { isLidJid, jidToPhone, normalizedJid } from './jids';
import { storedAccountJid, wipeAuthState } from './stored-auth-state';
import { providerErrorOf } from './whatsapp-errors';
import {
  type SessionContext,
  type SessionSettings,
  WhatsAppSocketSession,
} from './whatsapp-socket-session';

/**
 * The WhatsApp sessions of one Baileys instance, one {@link WhatsAppSocketSession} per owned
 * number: the session port the gateway's WhatsApp endpoints drive.
 */
export class BaileysSessions implements WhatsAppSessionPort {
  readonly #sessions = new Map<string, WhatsAppSocketSession>();
  #context: SessionContext | undefined;

  /** Sessions with `settings`; usable once attached to a started instance. */
  constructor(private readonly settings: SessionSettings) {}

  /** Binds the sessions to the started instance's state, events and logger. */
  attach(context: SessionContext): void {
    this.#context = context;
  }

  /** The instance's logger. */
  logger(): ProviderLogger {
    return this.#started().logger;
  }

  async enable(phoneNumber: string): Promise<WhatsAppSessionSnapshot> {
    const context = this.#started();
    let session = this.#sessions.get(phoneNumber);
    if (session?.live) return session.snapshot();
    if (!session) {
      session = new WhatsAppSocketSession(phoneNumber, this.settings, context);
      this.#sessions.set(phoneNumber, session);
    }
    await session.open();
    await session.memory.prune().catch(() => 0);
    return session.snapshot();
  }

  async requestPairingCode(
    phoneNumber: string,
    pairingPhoneNumber?: string,
  ): Promise<{ code: string; snapshot: WhatsAppSessionSnapshot }> {
    const context = this.#started();
    if (await storedAccountJid(context.state, phoneNumber)) {
      throw new ProviderError(
        'INVALID_STATUS',
        `${phoneNumber} is already paired: enable reconnects it without a code`,
      );
    }
    const live = this.#sessions.get(phoneNumber);
    if (!live?.live) await this.enable(phoneNumber);
    const session = this.sessionOf(phoneNumber);
    const code = await session.requestPairingCode(pairingPhoneNumber ?? phoneNumber);
    return { code, snapshot: session.snapshot() };
  }

  async disconnect(phoneNumber: string): Promise<WhatsAppSessionSnapshot> {
    this.#started();
    const session = this.#sessions.get(phoneNumber);
    if (session?.live) await session.disconnect();
    return this.getSession(phoneNumber);
  }

  async remove(phoneNumber: string): Promise<void> {
    const context = this.#started();
    const session = this.#sessions.get(phoneNumber);
    const paired = (await storedAccountJid(context.state, phoneNumber)) !== undefined;
    this.#sessions.delete(phoneNumber);
    if (session) await session.logout();
    await wipeAuthState(context.state, phoneNumber);
    if (!session && !paired) return;
    await context.delivery.deliver({
      kind: 'whatsapp.connection',
      channel: 'whatsapp',
      phoneNumber,
      state: 'not_enabled',
      occurredAt: new Date(this.settings.clock.now()),
    });
  }

  async getSession(phoneNumber: string): Promise<WhatsAppSessionSnapshot> {
    const session = this.#sessions.get(phoneNumber);
    if (session) return session.snapshot();
    const jid = this.#context
      ? await storedAccountJid(this.#context.state, phoneNumber)
      : undefined;
    return jid
      ? { phoneNumber, status: 'disconnected', jid: normalizedJid(jid) }
      : { phoneNumber, status: 'not_enabled' };
  }

  async isOnWhatsApp(phoneNumber: string, address: string): Promise<WhatsAppLookup> {
    const socket = this.sessionOf(phoneNumber).connectedSocket();
    if (isLidJid(address)) {
      // A linked-device id is a WhatsApp account by construction, and never a phone number:
      // Baileys' onWhatsApp skips it. Its number comes from the stored mapping, when shared.
      const lid = normalizedJid(address);
      const pn = await socket.signalRepository.lidMapping.getPNForLID(lid).catch(() => null);
      return { address, exists: true, jid: pn ? normalizedJid(pn) : lid };
    }
    const digits = address.replace(/\D/g, '');
    const answers = await socket.onWhatsApp(digits).catch((error: unknown) => {
      throw providerErrorOf(error, 'answer the lookup', 'operation');
    });
    const found =
      answers?.find((answer) => answer.exists && jidToPhone(answer.jid) === `+${digits}`) ??
      answers?.find((answer) => answer.exists);
    return found
      ? { address, exists: true, jid: normalizedJid(found.jid) }
      : { address, exists: false };
  }

  /** The session of an owned number; INVALID_STATUS when it was never enabled here. */
  /** True when another process holds the socket of `phoneNumber` (see `sendsElsewhere`). */
  heldElsewhere(phoneNumber: string): boolean {
    return this.#sessions.get(phoneNumber)?.heldElsewhere ?? false;
  }

  sessionOf(phoneNumber: string): WhatsAppSocketSession {
    this.#started();
    const session = this.#sessions.get(phoneNumber);
    if (!session) {
      throw new ProviderError(
        'INVALID_STATUS',
        `The WhatsApp session of ${phoneNumber} is not enabled on this instance`,
        { channel: 'whatsapp', fallback: true },
      );
    }
    return session;
  }

  /** A connected session: of `phoneNumber` when given, else any. */
  connectedSession(phoneNumber?: string): WhatsAppSocketSession | undefined {
    const candidates =
      phoneNumber === undefined ? [...this.#sessions.values()] : [this.#sessions.get(phoneNumber)];
    return candidates.find((session) => session?.snapshot().status === 'connected');
  }

  /** The owned numbers whose enabled session is down now. */
  disconnectedNumbers(): string[] {
    return [...this.#sessions.values()]
      .filter((session) => session.snapshot().status === 'disconnected')
      .map((session) => session.phoneNumber);
  }

  /** Closes every socket (the instance stops); credentials stay. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((session) => session.stop()));
    this.#sessions.clear();
  }

  #started(): SessionContext {
    if (!this.#context) {
      throw new ProviderError('INTERNAL_ERROR', 'The Baileys instance is not started');
    }
    return this.#context;
  }
}
