import type {
  Channel,
  RoutingCapability,
  RoutingDecision,
  RoutingReason,
} from '@switchboard/contract';

/** One step of a message's routing trace, as stored. */
export interface RoutingStepRecord {
  /** The message routed. */
  messageId: string;
  /** Its customer. */
  customerId: string;
  /** The delivery round: the message's retry count when the step happened. */
  attempt: number;
  /** When the step happened. */
  at: Date;
  /** The channel considered; null for steps before any channel (opt-out, pacing). */
  channel: Channel | null;
  /** The instance that carries (or would carry) the channel. */
  instanceId: string | null;
  /** What was done. */
  decision: RoutingDecision;
  /** Why. */
  reason: RoutingReason;
  /** The decision in one sentence. */
  detail: string;
  /** The error code behind a refusal, failure or block. */
  code: string | null;
  /** The reachability answer the decision read. */
  capability: RoutingCapability | null;
  /** How long the message waited, on `waited` steps. */
  waitMs: number | null;
  /** The upstream's id, on `accepted` steps. */
  externalId: string | null;
}

/** The routing traces of messages: appended while a message is routed, read by the API. */
export interface RoutingStepRepository {
  /** Appends steps, in order, after every step recorded before. */
  append(steps: readonly RoutingStepRecord[]): Promise<void>;
  /** A customer's message's steps, oldest first (none for another customer's message). */
  listByMessage(customerId: string, messageId: string): Promise<RoutingStepRecord[]>;
}
