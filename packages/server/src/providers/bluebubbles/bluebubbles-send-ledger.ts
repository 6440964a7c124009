import type { ProviderStateStore } from '@switchboard/provider-kit';

/** What the adapter remembers of one send attempt. */
export interface LedgerEntry {
  /** The chat it went to, once known. */
  chatGuid?: string;
  /** The text sent (matches a message found by reconciliation). */
  text: string;
  /** When the send started (epoch ms). */
  startedAt: number;
  /** The GUID of the message, once BlueBubbles told it. */
  guid?: string;
}

/** How long attempts are remembered: past BlueBubbles' week-long replay. */
const RETENTION_MS = 8 * 24 * 60 * 60 * 1000;

/**
 * The sends of one BlueBubbles instance, in its durable state: each attempt (its `tempGuid`) is
 * written before it is made, with the GUID once known, so a re-driven attempt is never sent twice
 * and a webhook of the Mac's own message is told apart from one typed on the Mac. Also the chat
 * GUID of each address, learned from sends (GUIDs are opaque: `iMessage;-;…`, `any;-;…`).
 */
export class BlueBubblesSendLedger {
  readonly #state: ProviderStateStore;
  readonly #now: () => number;

  /** A ledger over the instance's state store. */
  constructor(state: ProviderStateStore, now: () => number) {
    this.#state = state;
    this.#now = now;
  }

  /** The attempt, when it was started before. */
  async entry(attemptId: string): Promise<LedgerEntry | undefined> {
    const raw = await this.#state.get(`send:${attemptId}`);
    return raw === undefined ? undefined : (JSON.parse(raw) as LedgerEntry);
  }

  /** Writes an attempt down before it is made. */
  async begin(attemptId: string, entry: LedgerEntry): Promise<void> {
    await this.#state.set(`send:${attemptId}`, JSON.stringify(entry));
    // Attempts still waiting for their GUID, apart, so matching a webhook reads only them.
    await this.#state.set(`pending:${attemptId}`, '');
  }

  /** Records the GUID an attempt became (from the answer, a webhook or reconciliation). */
  async sent(attemptId: string, guid: string, chatGuid: string | undefined): Promise<void> {
    const entry = await this.entry(attemptId);
    await this.#state.set(
      `send:${attemptId}`,
      JSON.stringify({
        ...(entry ?? { text: '', startedAt: this.#now() }),
        guid,
        ...(chatGuid ? { chatGuid } : {}),
      }),
    );
    await this.#state.set(`guid:${guid}`, attemptId);
    await this.#state.delete(`pending:${attemptId}`);
  }

  /** Records a later message of an attempt (a file sent as its own message) as the gateway's. */
  async attach(attemptId: string, guid: string): Promise<void> {
    await this.#state.set(`guid:${guid}`, attemptId);
  }

  /** Forgets an attempt BlueBubbles refused (nothing was sent). */
  async refused(attemptId: string): Promise<void> {
    await this.#state.delete(`send:${attemptId}`);
    await this.#state.delete(`pending:${attemptId}`);
  }

  /** The attempt a message GUID belongs to, when the gateway sent it. */
  attemptOf(guid: string): Promise<string | undefined> {
    return this.#state.get(`guid:${guid}`);
  }

  /**
   * An attempt still waiting for its GUID whose text and chat match a message the Mac sent at or
   * after its start (a webhook without `tempGuid`, a message found by reconciliation).
   */
  async pendingMatch(
    chatGuid: string | undefined,
    text: string,
    createdAt: number,
  ): Promise<string | undefined> {
    for (const key of await this.#state.keys('pending:')) {
      const attemptId = key.slice('pending:'.length);
      const entry = await this.entry(attemptId);
      if (entry === undefined || entry.guid !== undefined || entry.text !== text) continue;
      if (entry.chatGuid !== undefined && chatGuid !== undefined && entry.chatGuid !== chatGuid) {
        continue;
      }
      if (createdAt + 2_000 < entry.startedAt) continue;
      return attemptId;
    }
    return undefined;
  }

  /** The chat GUID learned for an address on a channel. */
  chatOf(channel: string, address: string): Promise<string | undefined> {
    return this.#state.get(`chat:${channel}:${address}`);
  }

  /** Remembers the chat GUID of an address on a channel. */
  async rememberChat(channel: string, address: string, chatGuid: string): Promise<void> {
    await this.#state.set(`chat:${channel}:${address}`, chatGuid);
  }

  /** Forgets attempts older than the retention. */
  async prune(): Promise<void> {
    const before = this.#now() - RETENTION_MS;
    for (const key of await this.#state.keys('send:')) {
      const raw = await this.#state.get(key);
      if (raw === undefined) continue;
      const entry = JSON.parse(raw) as LedgerEntry;
      if (entry.startedAt >= before) continue;
      const attemptId = key.slice('send:'.length);
      await this.refused(attemptId);
      if (entry.guid !== undefined) await this.#state.delete(`guid:${entry.guid}`);
    }
  }
}
