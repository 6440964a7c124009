import type { Clock } from '../../clock';
import type { ProviderFailure } from '../../providers/provider-error';
import type { ProviderDeliveryStatus, ProviderStatusEvent } from '../../providers/provider-events';
import type { InboundContext } from '../../providers/provider-hub';
import type { MessageRecord } from '../../store/message-repository';
import type { Store, UnitOfWork } from '../../store/store';
import { type MessageEvents, STATUS_EVENT } from './message-events';
import { patchOf } from './message-record';
import { statusesToRecord } from './message-status';

/** A delivery status to apply to a message, from an event or a status look-up. */
export interface DeliveryUpdate {
  /** The status the provider reports. */
  status: ProviderDeliveryStatus;
  /** Why it failed, with `failed`. */
  error?: ProviderFailure;
  /** The provider id the update is about. */
  externalId: string;
}

/**
 * Applies provider status updates to messages: matched by the attempt id the provider echoes,
 * else by provider id; late updates of an earlier attempt or channel are ignored, statuses only
 * move forward (implied ones filled in), and each recorded status emits its event in the same
 * transaction. Idempotent: providers deliver updates at least once.
 */
export class MessageStatusUpdates {
  /** Updates over the store, recording events with `events`. */
  constructor(
    private readonly store: Store,
    private readonly events: MessageEvents,
    private readonly clock: Clock,
  ) {}

  /** The sink handler of `message.status` events. */
  readonly handle = async (event: ProviderStatusEvent, context: InboundContext): Promise<void> => {
    await this.store.transaction(async (tx) => {
      const byAttempt =
        event.attemptId === undefined
          ? undefined
          : await tx.messageAttempts.findById(event.attemptId);
      const attempt =
        byAttempt && byAttempt.instanceId === context.instanceId
          ? byAttempt
          : await tx.messageAttempts.findByExternalId(context.instanceId, event.externalId);
      if (!attempt) return;
      if (attempt.externalId === null) {
        await tx.messageAttempts.setExternalId(attempt.attemptId, event.externalId);
      }
      const message = await tx.messages.findByIdInAnyCustomer(attempt.messageId);
      // An update about an attempt the message has moved past (a retry, a fallback) is history.
      if (
        !message ||
        message.retryCount !== attempt.attempt ||
        message.channel !== attempt.channel
      ) {
        return;
      }
      await this.apply(tx, message, {
        status: event.status,
        externalId: event.externalId,
        ...(event.status === 'failed' ? { error: event.error } : {}),
      });
    });
  };

  /** Applies `update` to `message` inside `tx`; returns the message as it now is. */
  async apply(
    tx: UnitOfWork,
    message: MessageRecord,
    update: DeliveryUpdate,
  ): Promise<MessageRecord> {
    const steps = statusesToRecord(message.status, update.status);
    const externalId = message.externalId ?? update.externalId;
    if (steps.length === 0) {
      if (message.externalId === null && message.status !== 'failed') {
        await tx.messages.update(message.id, { externalId });
        return { ...message, externalId };
      }
      return message;
    }
    const now = this.clock.now();
    let current = message;
    const recorded: MessageRecord[] = [];
    for (const status of steps) {
      current = {
        ...current,
        status,
        externalId,
        timeline: [...current.timeline, { status, at: now, channel: current.channel }],
        ...(status === 'failed'
          ? {
              errorCode: update.error?.code ?? 'IMESSAGE_SEND_FAILED',
              errorMessage: update.error?.message ?? 'The provider reported a delivery failure',
            }
          : {}),
        updatedAt: new Date(now),
      };
      recorded.push(current);
    }
    await tx.messages.update(message.id, patchOf(current));
    for (const state of recorded) {
      const type = STATUS_EVENT[state.status as keyof typeof STATUS_EVENT];
      await this.events.lifecycle(tx, type, state, message.correlationId);
    }
    return current;
  }
}
