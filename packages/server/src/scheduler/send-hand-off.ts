import { randomUUID } from 'node:crypto';
import type { ClusterChannel } from '../store/cluster-channel';
import type { Worker } from '../workers';

/** How long a message id handed off by another process is not handed off again from here. */
const ECHO_WINDOW_MS = 5_000;

/** What a hand-off says on the channel. */
interface HandOffNote {
  origin: string;
  messageId: string;
}

/**
 * Hands a queued send to the process holding its sender's connection at once (a WhatsApp socket
 * is held by one process under its lease): the process that finds it cannot send a message
 * publishes its id, and every other process announces it to its dispatcher, so the holder takes
 * it now instead of on its next sweep. The others find it is not theirs either; they do not hand
 * it off again (an id they were handed within the last 5 s), so a note never echoes. A note lost
 * (the channel down) leaves the sweep to take the message, as before.
 */
export class SendHandOff implements Worker {
  /** Name for the logs. */
  readonly name = 'send-hand-off';
  readonly #origin = randomUUID();
  /** Ids handed off by other processes, with when (this process's monotonic clock). */
  readonly #received = new Map<string, number>();

  /** Hands off through `channel`; `announce` gives a handed-off id to this process's dispatcher. */
  constructor(
    private readonly channel: ClusterChannel,
    private readonly announce: (messageId: string) => void,
  ) {}

  /** Starts listening to the other processes' hand-offs. */
  start(): Promise<void> {
    return this.channel.listen((payload) => this.#receive(payload));
  }

  /** Tells the other processes that `messageId` waits for the holder of its sender's connection. */
  handOff(messageId: string): void {
    this.#forget();
    if (this.#received.has(messageId)) return;
    const note: HandOffNote = { origin: this.#origin, messageId };
    // The sweep is the fallback: a note that cannot be published is only later.
    this.channel.publish(JSON.stringify(note)).catch(() => undefined);
  }

  async stop(): Promise<void> {
    await this.channel.close();
  }

  #receive(payload: string): void {
    let note: HandOffNote;
    try {
      note = JSON.parse(payload) as HandOffNote;
    } catch {
      return;
    }
    if (note.origin === this.#origin || typeof note.messageId !== 'string') return;
    this.#forget();
    this.#received.set(note.messageId, performance.now());
    this.announce(note.messageId);
  }

  /** Drops the ids received longer ago than the echo window. */
  #forget(): void {
    const before = performance.now() - ECHO_WINDOW_MS;
    for (const [id, at] of this.#received) {
      if (at >= before) break;
      this.#received.delete(id);
    }
  }
}
