import type { DeliveryOutcome } from './delivery-client';
import type { DeliveryRequest, DeliverySenderOptions } from './delivery-sender';

/** What the sender thread is started with. */
export type SenderThreadData = DeliverySenderOptions;

/** A message to the sender thread: attempts to make (gathered over one turn), or stop. */
export type SenderThreadCommand =
  | { kind: 'send'; requests: ReadonlyArray<{ seq: number; request: DeliveryRequest }> }
  | { kind: 'close' };

/**
 * What became of one attempt in the thread: its outcome, or the message of the error that kept
 * it from being made (as the sender on the event loop would have thrown it).
 */
export type SenderThreadResult =
  | { seq: number; outcome: DeliveryOutcome }
  | { seq: number; error: string };

/** A message from the sender thread: results of attempts (gathered over one turn), or stopped. */
export type SenderThreadReply =
  | { kind: 'outcomes'; outcomes: readonly SenderThreadResult[] }
  | { kind: 'closed' };
