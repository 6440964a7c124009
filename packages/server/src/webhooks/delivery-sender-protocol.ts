import type { DeliveryOutcome } from './delivery-client';
import type { DeliveryRequest, DeliverySenderOptions } from './delivery-sender';

/** What the sender thread is started with. */
export type SenderThreadData = DeliverySenderOptions;

/** A message to the sender thread: attempts to make (gathered over one turn), or stop. */
export type SenderThreadCommand =
  | { kind: 'send'; requests: ReadonlyArray<{ seq: number; request: DeliveryRequest }> }
  | { kind: 'close' };

/** A message from the sender thread: outcomes of attempts (gathered over one turn), or stopped. */
export type SenderThreadReply =
  | { kind: 'outcomes'; outcomes: ReadonlyArray<{ seq: number; outcome: DeliveryOutcome }> }
  | { kind: 'closed' };
