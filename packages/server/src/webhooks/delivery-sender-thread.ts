import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type DeliveryOutcome, unansweredOutcome } from './delivery-client';
import type { DeliveryRequest, DeliverySender, DeliverySenderOptions } from './delivery-sender';
import type {
  SenderThreadCommand,
  SenderThreadData,
  SenderThreadReply,
} from './delivery-sender-protocol';

/**
 * How to start the thread: from `delivery-sender-worker.js` beside this module in the build
 * (`dist/`); from the `.ts` source when the server runs from its sources (tests, `pnpm dev`),
 * through tsx's require hook, as a thread does not inherit its parent's loaders.
 */
export function startSenderThread(workerData: SenderThreadData): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./delivery-sender-worker.js', import.meta.url), { workerData });
  }
  const source = fileURLToPath(new URL('./delivery-sender-worker.ts', import.meta.url));
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const boot = `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(source)});`;
  return new Worker(boot, { eval: true, workerData });
}

interface Waiting {
  resolve: (outcome: DeliveryOutcome) => void;
  reject: (error: Error) => void;
}

/** Options of {@link ThreadDeliverySender}. */
export interface ThreadDeliverySenderOptions extends DeliverySenderOptions {
  /** Starts a thread (default {@link startSenderThread}; tests start one that fails). */
  startThread?: (workerData: SenderThreadData) => Worker;
}

/**
 * The sender on a worker thread of its own (`WEBHOOK_SENDER_THREAD`): signing, the HTTP request
 * and reading the answer run beside the event loop that accepts sends and commits, on the
 * machine's second core. Requests go over in one message per turn of the event loop, outcomes
 * come back the same way. The thread starts with the first attempt. Should it die, the attempts
 * it held come back as retryable failures (their retries follow the schedule) and the next
 * attempt starts a new thread.
 */
export class ThreadDeliverySender implements DeliverySender {
  readonly #options: SenderThreadData;
  readonly #startThread: (workerData: SenderThreadData) => Worker;
  #worker: Worker | undefined;
  #seq = 0;
  readonly #waiting = new Map<number, Waiting>();
  /** The attempts handed over and not settled yet (closing waits for them). */
  readonly #inFlight = new Set<Promise<DeliveryOutcome>>();
  #batch: Array<{ seq: number; request: DeliveryRequest }> = [];
  #closing: Promise<void> | undefined;

  /** Creates the sender; the thread starts with the first {@link send}. */
  constructor(options: ThreadDeliverySenderOptions) {
    this.#options = { timeoutMs: options.timeoutMs, allowPrivate: options.allowPrivate };
    this.#startThread = options.startThread ?? startSenderThread;
  }

  send(request: DeliveryRequest): Promise<DeliveryOutcome> {
    if (this.#closing) return Promise.resolve(unansweredOutcome('the webhook sender is closed'));
    const worker = this.#worker ?? this.#start();
    const seq = ++this.#seq;
    const sent = new Promise<DeliveryOutcome>((resolve, reject) => {
      this.#waiting.set(seq, { resolve, reject });
      this.#batch.push({ seq, request });
      if (this.#batch.length > 1) return;
      // One message for every attempt started in this turn.
      queueMicrotask(() => {
        const requests = this.#batch;
        this.#batch = [];
        const command: SenderThreadCommand = { kind: 'send', requests };
        worker.postMessage(command);
      });
    });
    this.#inFlight.add(sent);
    const settled = () => this.#inFlight.delete(sent);
    sent.then(settled, settled);
    return sent;
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    // Attempts in flight end first (each within its deadline); their outcomes are recorded.
    await Promise.allSettled(this.#inFlight);
    await new Promise<void>((done) => {
      worker.once('exit', () => done());
      worker.on('message', (reply: SenderThreadReply) => {
        if (reply.kind === 'closed') void worker.terminate();
      });
      const command: SenderThreadCommand = { kind: 'close' };
      worker.postMessage(command);
    });
  }

  #start(): Worker {
    const worker = this.#startThread(this.#options);
    // The dispatcher's stop closes it; a thread left idle never holds the process open.
    worker.unref();
    worker.on('message', (reply: SenderThreadReply) => {
      if (reply.kind !== 'outcomes') return;
      for (const result of reply.outcomes) {
        const waiting = this.#waiting.get(result.seq);
        if (!waiting) continue;
        this.#waiting.delete(result.seq);
        if ('outcome' in result) waiting.resolve(result.outcome);
        else waiting.reject(new Error(result.error));
      }
    });
    const lost = (why: string) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      // Whether or not a request left, its outcome is unknown: a retry, as after a timeout.
      for (const [seq, waiting] of this.#waiting) {
        this.#waiting.delete(seq);
        waiting.resolve(
          unansweredOutcome(`the webhook sender thread stopped (${why}); will retry`),
        );
      }
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    this.#worker = worker;
    return worker;
  }
}
