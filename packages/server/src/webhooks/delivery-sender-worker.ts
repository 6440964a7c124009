/**
 * The webhook sender thread's entry point (built to `dist/delivery-sender-worker.js`): makes the
 * attempts the main thread hands it with an {@link InlineDeliverySender} of its own and answers
 * with their outcomes, gathered over one turn of its event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { InlineDeliverySender } from './delivery-sender';
import type {
  SenderThreadCommand,
  SenderThreadData,
  SenderThreadReply,
  SenderThreadResult,
} from './delivery-sender-protocol';

const port = parentPort;
if (!port) throw new Error('delivery-sender-worker runs as a worker thread only');
const sender = new InlineDeliverySender(workerData as SenderThreadData);
let outcomes: SenderThreadResult[] = [];

function reply(message: SenderThreadReply): void {
  port?.postMessage(message);
}

function answer(result: SenderThreadResult): void {
  outcomes.push(result);
  if (outcomes.length > 1) return;
  setImmediate(() => {
    const ready = outcomes;
    outcomes = [];
    reply({ kind: 'outcomes', outcomes: ready });
  });
}

port.on('message', (command: SenderThreadCommand) => {
  if (command.kind === 'close') {
    void sender.close().finally(() => reply({ kind: 'closed' }));
    return;
  }
  for (const { seq, request } of command.requests) {
    // One attempt that cannot be made (a request that cannot be signed) fails alone, as it would
    // on the event loop, instead of taking the thread and the other attempts with it.
    Promise.resolve()
      .then(() => sender.send(request))
      .then(
        (outcome) => answer({ seq, outcome }),
        (error: unknown) =>
          answer({ seq, error: error instanceof Error ? error.message : String(error) }),
      );
  }
});
