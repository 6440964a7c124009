import type { Channel } from '@switchboard/contract';
import type { ProviderSendResult } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { MessageRecord } from '../../store/message-repository';
import type { RoutingStepRecord } from '../../store/routing-step-repository';
import type { Repositories, Store } from '../../store/store';
import type { PreparedFile } from '../media/outbound-media';
import type { OptOutLedger } from '../opt-outs/opt-out-ledger';
import type { Departure, RouteStop } from '../routing/channel-planner';
import { attemptIdOf, firstChoice } from '../routing/routing-plan';
import type { MessageEvents } from './message-events';
import { patchOf } from './message-record';
import type { MessageStatusUpdates } from './status-updates';

/** Dependencies of {@link AttemptTransactions}. */
export interface AttemptTransactionOptions {
  /** The store. */
  store: Store;
  /** Records message events. */
  events: MessageEvents;
  /** Applies provider statuses (those that raced an attempt's acceptance). */
  statusUpdates: MessageStatusUpdates;
  /** The time source. */
  clock: Clock;
  /** Told when a failed send reports an opt-out. */
  optOuts?: Pick<OptOutLedger, 'recordRefusal'> | undefined;
  /**
   * Told when routing steps written on their own (a wait) could not be stored: the trace loses
   * them, the message goes on.
   */
  traceLost?: ((error: unknown, steps: readonly RoutingStepRecord[]) => void) | undefined;
}

/** A message's failure: the channel it failed on (null: keep the message's), code and words. */
export interface DeliveryFailure {
  /** The channel; null keeps the message's own. */
  channel: Channel | null;
  /** The error code. */
  code: string;
  /** The error in words. */
  message: string;
}

/**
 * The transactions of a delivery: claiming a message, recording an attempt (with its
 * `message.fallback`), its acceptance, the message's failure or its return to `queued`. Each
 * also appends the routing steps decided since the last one, so the trace costs no commit of its
 * own.
 */
export class AttemptTransactions {
  /** Transactions over the given dependencies. */
  constructor(private readonly options: AttemptTransactionOptions) {}

  /**
   * Appends routing steps on their own (a wait, where no other transaction is due). The trace
   * explains a message and never holds one: a step that cannot be stored is reported to
   * `traceLost` and the delivery goes on (decision 0526).
   */
  async recordSteps(steps: readonly RoutingStepRecord[]): Promise<void> {
    if (steps.length === 0) return;
    try {
      await this.options.store.routingSteps.append(steps);
    } catch (error) {
      this.options.traceLost?.(error, steps);
    }
  }

  /** Claims a `queued` message (queued → pending) whose attempt is recorded already. */
  async claim(message: MessageRecord): Promise<MessageRecord | undefined> {
    const claim = { status: 'pending' as const, updatedAt: new Date(this.options.clock.now()) };
    const claimed = await this.options.store.transaction((tx) =>
      tx.messages.transition(message.id, ['queued'], claim),
    );
    // The claim changed only these fields of the message read before: no need to read it again.
    return claimed ? { ...message, ...claim } : undefined;
  }

  /** Puts a `pending` message back to `queued`, to try its upstream again later. */
  async requeue(message: MessageRecord, steps: readonly RoutingStepRecord[]): Promise<void> {
    await this.options.store.transaction(async (tx) => {
      await tx.messages.transition(message.id, ['pending'], {
        status: 'queued',
        updatedAt: new Date(this.options.clock.now()),
      });
      await appendSteps(tx, steps);
    });
  }

  /**
   * Records the attempt on `stop` (and `message.fallback` when it is not the first choice) in
   * one transaction, claiming a message still `queued` (`from`) in it; false when the message is
   * no longer `from` (deleted, canceled, failed, or claimed by another worker meanwhile).
   *
   * A `queued` message on its first choice (the common case) is not read again: one conditional
   * update claims it (still `queued`, in the same retry, not deleted). While it is `queued` no
   * worker has changed it since `message` was read, and no fallback event needs it as it is now.
   */
  async start(
    message: MessageRecord,
    stop: RouteStop,
    departure: Departure | undefined,
    from: 'queued' | 'pending',
    steps: readonly RoutingStepRecord[],
  ): Promise<boolean> {
    const { channel, instanceId } = stop;
    const first = firstChoice(message);
    const claimOnly = from === 'queued' && channel === first;
    return this.options.store.transaction(async (tx) => {
      const current = claimOnly ? message : await tx.messages.findByIdInAnyCustomer(message.id);
      if (current?.status !== from || current.retryCount !== message.retryCount) {
        return false;
      }
      const now = this.options.clock.now();
      const updated: MessageRecord = {
        ...current,
        status: 'pending',
        channel,
        instanceId,
        fallbackTriggered: channel !== first,
        updatedAt: new Date(now),
      };
      // The message now lives on the instance carrying its attempt (its statuses come from it).
      const patch = {
        ...patchOf(updated, current),
        ...(instanceId === current.instanceId ? {} : { instanceId }),
      };
      if (claimOnly) {
        const retry = { retryCount: message.retryCount };
        if (!(await tx.messages.transition(message.id, [from], patch, retry))) return false;
      } else {
        await tx.messages.update(message.id, patch);
      }
      await tx.messageAttempts.insert({
        attemptId: attemptIdOf(message.id, message.retryCount, channel),
        messageId: message.id,
        customerId: message.customerId,
        instanceId,
        attempt: message.retryCount,
        channel,
        externalId: null,
        createdAt: new Date(now),
      });
      await appendSteps(tx, steps);
      if (channel !== first && first !== undefined) {
        await this.options.events.fallback(tx, updated, updated.correlationId, {
          fromChannel: departure?.channel ?? first,
          toChannel: channel,
          reason: departure?.reason ?? 'unavailable',
        });
      }
      return true;
    });
  }

  /**
   * Records the provider id of an accepted attempt (`sent`'s retry on `stop`), and its parts
   * when it became several.
   */
  async accepted(
    sent: MessageRecord,
    stop: RouteStop,
    result: ProviderSendResult,
    files: PreparedFile[] | undefined,
    steps: readonly RoutingStepRecord[],
  ): Promise<void> {
    const { channel, instanceId } = stop;
    const attemptId = attemptIdOf(sent.id, sent.retryCount, channel);
    const { externalId, parts = [] } = result;
    await this.options.store.transaction(async (tx) => {
      const early = await tx.messageAttempts.recordAccepted(attemptId, externalId);
      if (parts.length > 1) {
        await tx.messageParts.insertAll(
          parts.map((part, partIndex) => ({
            attemptId,
            partIndex,
            instanceId,
            externalId: part.externalId,
            kind: part.kind,
            status: null,
            errorCode: null,
            errorMessage: null,
          })),
        );
      }
      await recordProviderId(tx, sent, channel, result, files);
      await appendSteps(tx, steps);
      // Status callbacks that raced this response (a part's, while later parts were being
      // sent) were kept on the attempt: they apply now that its id and parts are known.
      await this.options.statusUpdates.applyEarly(tx, attemptId, instanceId, early);
    });
  }

  /** Fails a message still in status `from` (pending by default) with `message.failed`. */
  async fail(
    message: MessageRecord,
    failure: DeliveryFailure,
    from: 'queued' | 'pending',
    steps: readonly RoutingStepRecord[],
  ): Promise<void> {
    await this.options.store.transaction(async (tx) => {
      const current = await tx.messages.findByIdInAnyCustomer(message.id);
      if (current?.status !== from) return;
      const now = this.options.clock.now();
      const channel = failure.channel ?? current.channel;
      const failed: MessageRecord = {
        ...current,
        status: 'failed',
        channel,
        errorCode: failure.code,
        errorMessage: failure.message,
        timeline: [...current.timeline, { status: 'failed', at: now, channel }],
        updatedAt: new Date(now),
      };
      await tx.messages.update(message.id, patchOf(failed, current));
      await appendSteps(tx, steps);
      await this.options.events.lifecycle(tx, 'message.failed', failed, failed.correlationId);
      await this.options.optOuts?.recordRefusal(tx, failed);
    });
  }
}

/** Appends routing steps inside a transaction. */
async function appendSteps(tx: Repositories, steps: readonly RoutingStepRecord[]): Promise<void> {
  if (steps.length > 0) await tx.routingSteps.append(steps);
}

/**
 * Records the provider id (and segments) of the attempt on `channel` on the message while it is
 * the message's current one; with prepared files, merges their conversions into its attachments.
 */
async function recordProviderId(
  tx: Repositories,
  sent: MessageRecord,
  channel: Channel,
  result: ProviderSendResult,
  files: PreparedFile[] | undefined,
): Promise<void> {
  const { externalId, segments } = result;
  // The attempt is the message's current one while its retry count and channel are the
  // attempt's (its id is made of them: no need to read its row back).
  if (files === undefined) {
    const attempt = { retryCount: sent.retryCount, channel };
    await tx.messages.recordProviderId(sent.id, attempt, externalId, segments);
    return;
  }
  // The files' conversions are merged into the attachments as they are now.
  const message = await tx.messages.findByIdInAnyCustomer(sent.id);
  if (
    message &&
    (message.externalId === null || message.externalId === externalId) &&
    message.retryCount === sent.retryCount &&
    message.channel === channel
  ) {
    await tx.messages.update(sent.id, {
      externalId,
      ...(segments === undefined ? {} : { segments }),
      attachments: withPreparedFiles(message, files),
    });
  }
}

/**
 * The message's attachments as they were sent: real types, sizes once known, and how each
 * converted one was converted.
 */
function withPreparedFiles(message: MessageRecord, files: readonly PreparedFile[]) {
  return message.attachments.map((attachment) => {
    const file = files.find((candidate) => candidate.position === attachment.position);
    if (!file) return attachment;
    const { conversion: _previous, ...rest } = attachment;
    return {
      ...rest,
      mimeType: file.conversion?.from.mimeType ?? file.mimeType,
      totalBytes: attachment.totalBytes ?? file.sourceBytes,
      ...(file.conversion ? { conversion: file.conversion } : {}),
    };
  });
}
