import type { MessageRouting } from '@switchboard/contract';
import type { RoutingStepRecord } from '../../store/routing-step-repository';

/** A message's stored routing steps as the API's `MessageRouting`, numbered from 1. */
export function toMessageRouting(
  messageId: string,
  steps: readonly RoutingStepRecord[],
): MessageRouting {
  return {
    messageId,
    steps: steps.map((step, index) => ({
      sequence: index + 1,
      attempt: step.attempt,
      at: step.at.toISOString(),
      channel: step.channel,
      instanceId: step.instanceId,
      decision: step.decision,
      reason: step.reason,
      detail: step.detail,
      code: step.code,
      capability: step.capability,
      waitMs: step.waitMs,
      externalId: step.externalId,
    })),
  };
}
