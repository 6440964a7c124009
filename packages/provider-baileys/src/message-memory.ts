import type { ProviderStateStore } from '@switchboard/provider-kit';
import { BufferJSON, type WAMessage } from 'baileys';

/** How long a message is kept for quoting and retries: a week. */
const MESSAGE_MEMORY_TTL_MS = 7 * 24 * 60 * 60 * 1000;

interface Remembered {
  expiresAt: number;
  message: WAMessage;
}

/**
 * The messages a session sent or received recently, kept in the instance's state store with a
 * TTL: a quoted reply needs the quoted content, and Baileys' `getMessage` answers a recipient's
 * retry request with the original.
 */
export class MessageMemory {
  /** Messages of the session of `phoneNumber` in `store`, on `now`. */
  constructor(
    private readonly store: ProviderStateStore,
    private readonly phoneNumber: string,
    private readonly now: () => number,
    private readonly ttlMs = MESSAGE_MEMORY_TTL_MS,
  ) {}

  #key(id: string): string {
    return `whatsapp/${this.phoneNumber}/messages/${id}`;
  }

  /** Keeps `message` (by its id) until the TTL passes. */
  async remember(message: WAMessage): Promise<void> {
    const id = message.key.id;
    if (!id || !message.message) return;
    const value: Remembered = { expiresAt: this.now() + this.ttlMs, message };
    await this.store.set(this.#key(id), JSON.stringify(value, BufferJSON.replacer));
  }

  /** The message with this id, when kept and not expired. */
  async recall(id: string): Promise<WAMessage | undefined> {
    const raw = await this.store.get(this.#key(id));
    if (raw === undefined) return undefined;
    const value = JSON.parse(raw, BufferJSON.reviver) as Remembered;
    return value.expiresAt > this.now() ? value.message : undefined;
  }

  /** Records the result of a send attempt, so a re-driven attempt answers it instead of sending. */
  async rememberSend(attemptId: string, result: unknown): Promise<void> {
    const value = { expiresAt: this.now() + this.ttlMs, result };
    await this.store.set(this.#key(`attempt:${attemptId}`), JSON.stringify(value));
  }

  /** The result of a send attempt made before, when kept. */
  async recallSend<T>(attemptId: string): Promise<T | undefined> {
    const raw = await this.store.get(this.#key(`attempt:${attemptId}`));
    if (raw === undefined) return undefined;
    const value = JSON.parse(raw) as { expiresAt: number; result: T };
    return value.expiresAt > this.now() ? value.result : undefined;
  }

  /** Drops the expired messages; answers how many. */
  async prune(): Promise<number> {
    const keys = await this.store.keys(`whatsapp/${this.phoneNumber}/messages/`);
    const values = await this.store.getMany(keys);
    const expired = new Map<string, null>();
    for (const [key, raw] of values) {
      const { expiresAt } = JSON.parse(raw) as { expiresAt: number };
      if (expiresAt <= this.now()) expired.set(key, null);
    }
    if (expired.size > 0) await this.store.setMany(expired);
    return expired.size;
  }
}
