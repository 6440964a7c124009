import type { MessageStatus } from '@switchboard/contract';
import type { Clock } from '../clock';
import type { DeliveryTurn, MessageDelivery } from '../domain/messages/message-delivery';
import type { Store } from '../store/store';
import { storeUnavailableReason } from '../store/store-unavailable';
import type { Worker } from '../workers';
import { PeriodicTask } from './periodic-task';

/**
 * How long after its last change a `sent` message is still reconciled at start-up: 24 h. It is
 * waiting for its `delivered` (or `failed`), which the provider may have reported while the server
 * was down; messages normally leave `sent` within seconds, so these are few.
 */
const RECONCILE_SENT_WITHIN_MS = 24 * 60 * 60 * 1000;
/**
 * How long after its last change a `delivered` message is still reconciled at start-up: 15 min.
 * Only a read receipt can follow (not on SMS, and only when the recipient sends them), mostly
 * soon after delivery; every delivered message of a busy day would be thousands of look-ups.
 */
const RECONCILE_DELIVERED_WITHIN_MS = 15 * 60 * 1000;
/** Messages looked at per scan, and per page of start-up recovery. */
const BATCH = 200;
/** Queued messages started per turn of the event loop (see `#schedulePump`). */
const STARTS_PER_TURN = 4;
/** At most this many messages of each kind are recovered at start-up. */
const RECOVERY_LIMIT = 10_000;

/** A logger for the worker's own failures. */
export interface DispatcherLogger {
  /** Logs at error level. */
  error(details: Record<string, unknown>, message: string): void;
}

/** Dependencies of {@link MessageDispatcher}. */
export interface MessageDispatcherOptions {
  /** The store. */
  store: Store;
  /** Hands messages to providers. */
  delivery: MessageDelivery;
  /** The time source. */
  clock: Clock;
  /** How many messages are handed to providers at once. */
  concurrency?: number;
  /** How often to look for queued messages nobody announced (another process, a lost nudge). */
  sweepIntervalMs?: number;
  /** How long after its last change a `sent` message is reconciled at start-up (default 24 h). */
  reconcileSentWithinMs?: number;
  /**
   * How long after its last change a `delivered` message is reconciled at start-up, for a read
   * receipt missed while the server was down (default 15 min).
   */
  reconcileDeliveredWithinMs?: number;
  /**
   * Set when other server processes share the database (PostgreSQL): a `pending` message is then
   * another process's work in progress, taken over only once it has been unchanged this long (its
   * process died). Start-up recovery resumes only those, and every sweep looks for them. Unset (one
   * process per SQLite file): every `pending` message at start-up is this process's own leftover.
   */
  takeoverAfterMs?: number;
}

/**
 * The worker that drives queued messages through their provider. A send (or the scheduler, or a
 * retry) announces each queued message once it is committed; a periodic sweep picks up any that
 * were not announced. At start it resumes what a crash interrupted: messages left `pending`, and
 * provider updates missed while the server was down (asked of the providers). A message is
 * claimed with a conditional update, so two workers never send it twice.
 */
export class MessageDispatcher implements Worker {
  /** Name for the logs. */
  readonly name = 'message-dispatcher';
  readonly #options: MessageDispatcherOptions;
  readonly #concurrency: number;
  /** Messages to start, and whether each holds its pacing reservation already. */
  readonly #waiting = new Map<string, boolean>();
  /** Messages told to come back later (paced, or waiting for their upstream): not swept. */
  readonly #deferred = new Set<string>();
  readonly #running = new Map<string, Promise<void>>();
  /** Messages whose last turn hit an unavailable database, and how many times in a row. */
  readonly #storageFaults = new Map<string, number>();
  readonly #sweep: PeriodicTask;
  #stopped = true;
  #pumpScheduled = false;
  #logger: DispatcherLogger = { error: () => undefined };
  #recovery: Promise<void> = Promise.resolve();

  /** A dispatcher that does nothing until {@link start}. */
  constructor(options: MessageDispatcherOptions) {
    this.#options = options;
    this.#concurrency = Math.max(1, options.concurrency ?? 16);
    this.#sweep = new PeriodicTask({
      name: 'message-sweep',
      intervalMs: options.sweepIntervalMs ?? 5_000,
      run: async () => {
        await this.#sweepQueued();
        await this.#takeOverStale();
      },
      onError: (error) => this.#logger.error({ err: error }, 'queued message sweep failed'),
    });
  }

  /**
   * Starts taking queued messages, after recovering interrupted work in the background (a slow
   * provider must not hold up the server's start). `logger` receives the worker's failures.
   */
  start(logger: DispatcherLogger): void {
    this.#logger = logger;
    this.#stopped = false;
    this.#recovery = this.#recover()
      .then(() => this.#sweepQueued())
      .catch((error: unknown) => this.#logger.error({ err: error }, 'message recovery failed'))
      .finally(() => {
        if (!this.#stopped) this.#sweep.start();
      });
  }

  /** Resolves once start-up recovery is over. */
  recovered(): Promise<void> {
    return this.#recovery;
  }

  /** Announces a queued message: it is handed to its provider as soon as a slot is free. */
  enqueue(messageId: string): void {
    if (this.#stopped || this.#running.has(messageId) || this.#deferred.has(messageId)) return;
    if (!this.#waiting.has(messageId)) this.#waiting.set(messageId, false);
    this.#schedulePump();
  }

  /** Stops taking messages and waits for those being handed to providers. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#waiting.clear();
    this.#deferred.clear();
    await this.#recovery;
    await this.#sweep.stop();
    while (this.#running.size > 0) await Promise.all([...this.#running.values()]);
  }

  /**
   * Starts waiting messages on `setImmediate`, at most {@link STARTS_PER_TURN} per turn of the
   * event loop: the I/O callbacks of each turn (new sends) run first and queue their transactions
   * on the store ahead of the lifecycle work of messages already accepted, and a backlog of
   * queued messages enters the store's queue a few at a time instead of all at once. When the
   * loop is idle, turns are short and the backlog drains at full speed.
   */
  #schedulePump(): void {
    if (this.#pumpScheduled || this.#stopped) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  #pump(): void {
    let started = 0;
    for (const [id, reserved] of this.#waiting) {
      if (this.#running.size >= this.#concurrency) return;
      if (started === STARTS_PER_TURN) {
        this.#schedulePump();
        return;
      }
      this.#waiting.delete(id);
      if (this.#running.has(id)) continue;
      started += 1;
      this.#run(id, () => this.#options.delivery.deliverQueued(id, reserved));
    }
  }

  #run(id: string, work: () => Promise<DeliveryTurn>): void {
    const running = work()
      .then(
        (turn) => {
          this.#storageFaults.delete(id);
          return turn;
        },
        (error: unknown): DeliveryTurn => {
          this.#logger.error({ err: error, messageId: id }, 'message delivery failed');
          if (storeUnavailableReason(error) !== undefined) this.#redriveLater(id);
          return undefined;
        },
      )
      .then((turn) => {
        // Off the running list before the wait is taken up: a wait that has settled already (a
        // slot released while this turn was returning) brings the message back at once.
        this.#running.delete(id);
        if (turn) this.#deferUntil(id, turn);
        this.#schedulePump();
      });
    this.#running.set(id, running);
  }

  /**
   * A turn failed because the database could not be written (locked, read-only, full): the
   * message may be left `pending` with its attempt recorded, which only start-up recovery would
   * otherwise pick up. It is resumed here after a backoff (1 s, doubling up to 30 s) until the
   * database takes it; a `queued` one is the sweep's.
   */
  #redriveLater(id: string): void {
    const faults = (this.#storageFaults.get(id) ?? 0) + 1;
    this.#storageFaults.set(id, faults);
    const delay = Math.min(1000 * 2 ** (faults - 1), 30_000);
    this.#deferred.add(id);
    setTimeout(() => {
      this.#deferred.delete(id);
      if (this.#stopped || this.#running.has(id)) return;
      this.#run(id, async () => {
        await this.#options.delivery.resumePending(id);
        return undefined;
      });
    }, delay).unref();
  }

  /** Takes the message up again once `turn.resume` settles, keeping its pacing reservation. */
  #deferUntil(id: string, turn: NonNullable<DeliveryTurn>): void {
    this.#deferred.add(id);
    const comeBack = (): void => {
      this.#deferred.delete(id);
      if (this.#stopped || this.#running.has(id)) return;
      this.#waiting.set(id, turn.reserved);
      this.#schedulePump();
    };
    // A resume that fails still brings the message back: its next turn meets the failure.
    void turn.resume.then(comeBack, comeBack);
  }

  /**
   * Resumes `pending` messages unchanged for {@link MessageDispatcherOptions.takeoverAfterMs}: a
   * dead process's sends, each claimed by one conditional update so that of the live processes
   * exactly one resumes it. Resuming re-drives the same attempt id (or asks the provider where a
   * send it accepted stands), so an upstream that dedupes on it never sends twice.
   */
  async #takeOverStale(): Promise<void> {
    const { takeoverAfterMs } = this.#options;
    if (takeoverAfterMs === undefined || this.#stopped) return;
    const { store, clock, delivery } = this.#options;
    const now = clock.now();
    const before = new Date(now - takeoverAfterMs);
    const ids = await store.messages.staleIds('pending', before, BATCH);
    const claimed: string[] = [];
    for (const id of ids) {
      if (this.#running.has(id)) continue;
      if (await store.messages.claimStale(id, 'pending', before, new Date(now))) claimed.push(id);
    }
    await this.#inLanes(claimed, (id) => delivery.resumePending(id));
  }

  async #sweepQueued(): Promise<void> {
    const ids = await this.#options.store.messages.idsInStatus(['queued'], BATCH);
    for (const id of ids) this.enqueue(id);
  }

  /**
   * Start-up recovery (one server per SQLite file): a message still `pending` was being handed to a
   * provider when the process died; a recently changed `sent` or `delivered` one may have missed
   * updates. Pages of {@link BATCH} ids, each worked through before the next is read, so the
   * memory recovery holds does not grow with the number of messages.
   */
  async #recover(): Promise<void> {
    const { store, delivery, clock } = this.#options;
    if (this.#options.takeoverAfterMs === undefined) {
      await this.#recoverPages(
        (limit) => store.messages.idsInStatus(['pending'], limit),
        (id) => delivery.resumePending(id),
      );
    } else {
      // Other processes share the database: only their dead share is ours to resume.
      await this.#takeOverStale();
    }
    const now = clock.now();
    // Delivered first: a `sent` message reconciled to `delivered` is not looked up twice.
    const windows: Array<[MessageStatus, number]> = [
      ['delivered', this.#options.reconcileDeliveredWithinMs ?? RECONCILE_DELIVERED_WITHIN_MS],
      ['sent', this.#options.reconcileSentWithinMs ?? RECONCILE_SENT_WITHIN_MS],
    ];
    for (const [status, withinMs] of windows) {
      const since = new Date(now - withinMs);
      await this.#recoverPages(
        (limit) => store.messages.unsettledSince([status], since, limit),
        (id) => delivery.reconcile(id),
      );
    }
  }

  /**
   * Recovers the messages `list` finds, a page at a time. Recovering a message may leave it in
   * the list (still `pending` until its provider answers) or move it to the end (a new
   * `updatedAt`), and the list has no cursor: each page asks for the ids seen so far plus a page,
   * and works through those not seen yet, until the list has no more or the limit is reached.
   */
  async #recoverPages(
    list: (limit: number) => Promise<string[]>,
    recover: (id: string) => Promise<void>,
  ): Promise<void> {
    const seen = new Set<string>();
    while (!this.#stopped && seen.size < RECOVERY_LIMIT) {
      const limit = seen.size + BATCH;
      const ids = await list(limit);
      const fresh = ids.filter((id) => !seen.has(id));
      for (const id of fresh) seen.add(id);
      await this.#inLanes(fresh, recover);
      if (fresh.length === 0 || ids.length < limit) return;
    }
  }

  /** Recovers `ids`, a few at a time: recovery must not flood a provider that is itself starting. */
  async #inLanes(ids: readonly string[], recover: (id: string) => Promise<void>): Promise<void> {
    let next = 0;
    const lanes = Array.from({ length: Math.min(this.#concurrency, ids.length) }, async () => {
      while (next < ids.length && !this.#stopped) {
        // Sync SQLite and an in-process provider can settle a whole task in microtasks: yield to
        // the event loop between tasks, or a large recovery keeps the server from answering (and
        // even from listening) until it is over.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const id = ids[next++];
        if (id === undefined || this.#stopped) return;
        await recover(id).catch((error: unknown) =>
          this.#logger.error({ err: error, messageId: id }, 'message recovery failed'),
        );
      }
    });
    await Promise.all(lanes);
  }
}
