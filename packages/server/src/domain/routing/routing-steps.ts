import type { Channel, RoutingDecision, RoutingReason } from '@switchboard/contract';
import type { RoutingStepRecord } from '../../store/routing-step-repository';

/** The message a routing step belongs to. */
export interface RoutedSubject {
  /** The message id. */
  id: string;
  /** Its customer. */
  customerId: string;
  /** Its retry count: the delivery round the step belongs to. */
  retryCount: number;
}

/** The fields of a step beyond its message and time; absent ones are null. */
export interface StepFields {
  /** What was done. */
  decision: RoutingDecision;
  /** Why. */
  reason: RoutingReason;
  /** The decision in one sentence. */
  detail: string;
  /** The channel considered. */
  channel?: Channel | null;
  /** The instance carrying it. */
  instanceId?: string | null;
  /** The error code behind the decision. */
  code?: string | null;
  /** The reachability answer read. */
  capability?: RoutingStepRecord['capability'];
  /** How long the message waits. */
  waitMs?: number | null;
  /** The upstream's id of an accepted send. */
  externalId?: string | null;
}

/** One routing step of `subject` at `at` (epoch milliseconds). */
export function routingStep(
  subject: RoutedSubject,
  at: number,
  fields: StepFields,
): RoutingStepRecord {
  return {
    messageId: subject.id,
    customerId: subject.customerId,
    attempt: subject.retryCount,
    at: new Date(at),
    channel: fields.channel ?? null,
    instanceId: fields.instanceId ?? null,
    decision: fields.decision,
    reason: fields.reason,
    detail: fields.detail,
    code: fields.code ?? null,
    capability: fields.capability ?? null,
    waitMs: fields.waitMs ?? null,
    externalId: fields.externalId ?? null,
  };
}

/**
 * The step of a message that waits `waitMs` for its instance's send rate, counted in whole
 * milliseconds (a shared pace book answers in fractions of one).
 */
export function pacingWait(
  subject: RoutedSubject,
  at: number,
  instanceId: string,
  waitMs: number,
): RoutingStepRecord {
  return routingStep(subject, at, {
    decision: 'waited',
    reason: 'pacing',
    instanceId,
    waitMs: Math.ceil(waitMs),
    detail: `The instance's send rate holds the message for ${Math.ceil(waitMs)} ms`,
  });
}

/** The step of a message that waits `waitMs` for an upstream that cannot be reached. */
export function upstreamWait(
  subject: RoutedSubject,
  at: number,
  place: { channel: Channel | null; instanceId: string },
  failure: { code: string; message: string },
  waitMs: number,
): RoutingStepRecord {
  return routingStep(subject, at, {
    ...place,
    decision: 'waited',
    reason: 'upstream_down',
    code: failure.code,
    waitMs: Math.ceil(waitMs),
    detail: `The upstream cannot be reached (${failure.message}); the message waits ${Math.ceil(waitMs)} ms`,
  });
}

/** The step of a message stopped before any channel: an opt-out or an unsafe URL. */
export function blocked(
  subject: RoutedSubject,
  at: number,
  reason: 'opted_out' | 'unsafe_url',
  failure: { code: string; message: string },
): RoutingStepRecord {
  return routingStep(subject, at, {
    decision: 'blocked',
    reason,
    code: failure.code,
    detail: failure.message,
  });
}

/** The step of a message failed because its upstream stayed down or its instance is unusable. */
export function upstreamFailure(
  subject: RoutedSubject,
  at: number,
  place: { channel: Channel | null; instanceId: string },
  failure: { code: string; message: string; retryable: boolean },
): RoutingStepRecord {
  return routingStep(subject, at, {
    ...place,
    decision: 'failed',
    reason: failure.retryable ? 'upstream_down' : 'instance_unavailable',
    code: failure.code,
    detail: failure.message,
  });
}

/** The step of a message its sender number's send policy holds until `hold.until`. */
export function policyHold(
  subject: RoutedSubject,
  at: number,
  hold: { code: string; message: string; until: number },
): RoutingStepRecord {
  return routingStep(subject, at, {
    decision: 'waited',
    reason: 'send_policy',
    code: hold.code,
    waitMs: Math.max(0, hold.until - at),
    detail: hold.message,
  });
}

/** The step of a message failed because its send policy held it past its hold window. */
export function policyHoldExpired(
  subject: RoutedSubject,
  at: number,
  failure: { code: string; message: string },
): RoutingStepRecord {
  return routingStep(subject, at, {
    decision: 'failed',
    reason: 'send_policy',
    code: failure.code,
    detail: failure.message,
  });
}
