import type {
  ProviderDeliveryStatus,
  ProviderFailure,
  ProviderStatusEvent,
} from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { InboundContext } from '../../providers/provider-hub';
import type {
  EarlyStatusUpdate,
  MessageAttemptRecord,
  MessageAttemptRepository,
} from '../../store/message-attempt-repository';
import type { MessagePartRecord } from '../../store/message-part-repository';
import type { MessageRecord } from '../../store/message-repository';
import type { Store, UnitOfWork } from '../../store/store';
import { attemptIdOf } from '../routing/routing-plan';
import { type MessageEvents, STATUS_EVENT } from './message-events';
import { patchOf } from './message-record';
import { deliveryRank, leastDelivered, statusesToRecord } from './message-status';

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
    /** Called in the transaction that fails a message (the opt-out ledger learns from it). */
    private readonly onFailed?: (
      tx: UnitOfWork,
      message: MessageRecord,
      error: ProviderFailure | undefined,
    ) => Promise<void>,
  ) {}

  /** Attempts whose accepted send this process is recording, each until that has ended. */
  readonly #recording = new Map<string, Promise<void>>();

  /** The sink handler of `message.status` events. */
  readonly handle = async (event: ProviderStatusEvent, context: InboundContext): Promise<void> => {
    const recording =
      event.attemptId === undefined ? undefined : this.#recording.get(event.attemptId);
    if (recording) await recording;
    await this.store.transaction((tx) => this.#handleIn(tx, event, context.instanceId));
  };

  /**
   * Runs `record`, the transaction that records the accepted send of `attemptId` (its provider
   * id and parts), and holds the attempt's status updates that reach this process meanwhile until
   * it has ended. They then find the provider id recorded, instead of being kept on the attempt
   * for the recording to apply: on PostgreSQL that write and the recording's change the same row
   * at once, and one of the two transactions is rolled back and runs again. Updates that arrive
   * while the provider is still answering the send, or in another process, are kept as before.
   */
  async whileRecording<T>(attemptId: string, record: () => Promise<T>): Promise<T> {
    const running = record();
    const ended = running.then(
      () => undefined,
      () => undefined,
    );
    this.#recording.set(attemptId, ended);
    try {
      return await running;
    } finally {
      if (this.#recording.get(attemptId) === ended) this.#recording.delete(attemptId);
    }
  }

  /**
   * Applies the updates kept for an attempt while its send was not yet recorded as accepted
   * (`early`, as {@link MessageAttemptRepository.recordAccepted} answered them), in the order
   * they came, then forgets them. Called in the transaction that records the send's provider id
   * and its parts, after recording them: a part's update then finds its part.
   */
  async applyEarly(
    tx: UnitOfWork,
    attemptId: string,
    instanceId: string,
    early: readonly EarlyStatusUpdate[],
  ): Promise<void> {
    if (early.length === 0) return;
    for (const update of early) await this.#handleIn(tx, eventOf(update, attemptId), instanceId);
    await tx.messageAttempts.setEarlyUpdates(attemptId, null);
  }

  async #handleIn(tx: UnitOfWork, event: ProviderStatusEvent, instanceId: string): Promise<void> {
    // An update that echoes its attempt: the part its id names, the attempt and the message in
    // one read (one round trip on PostgreSQL instead of three).
    const target =
      event.attemptId === undefined
        ? undefined
        : await tx.messageAttempts.findStatusTarget(event.attemptId, instanceId, event.externalId);
    const part = target
      ? target.part
      : await tx.messageParts.findByExternalId(instanceId, event.externalId);
    if (part) {
      await this.#applyToPart(tx, part, event);
      return;
    }
    // The attempt the update names, when it is one of this instance's.
    const echoed = target?.attempt.instanceId === instanceId ? target.attempt : undefined;
    if (echoed?.externalId === null) {
      // The send's response has not been recorded yet (the update raced it), so whether this is
      // the whole send or one of its parts is not known: kept on the attempt until it is. On
      // PostgreSQL this write and the recording's conflict on the row, and the later runs again.
      const kept = [...(echoed.earlyUpdates ?? []), earlyOf(event)];
      await tx.messageAttempts.setEarlyUpdates(echoed.attemptId, kept);
      return;
    }
    const found = echoed
      ? { attempt: echoed, message: target?.message }
      : await this.#byProviderId(tx, instanceId, event.externalId);
    if (!found) return;
    const { attempt, message } = found;
    // An update about an attempt the message has moved past (a retry, a fallback) is history.
    if (!message || message.retryCount !== attempt.attempt || message.channel !== attempt.channel) {
      return;
    }
    let status: ProviderDeliveryStatus = event.status;
    if (event.recipient !== undefined && message.isGroup && status !== 'failed') {
      const reached = await this.#groupStatus(tx, message, event.recipient, status);
      if (reached === undefined) return;
      status = reached;
    }
    await this.apply(tx, message, {
      status,
      externalId: event.externalId,
      ...(event.status === 'failed' ? { error: event.error } : {}),
    });
  }

  /**
   * The attempt a provider id names, with its message, for an update that does not echo its
   * attempt (a provider that forgot it across a restart): the message that holds the id on that
   * instance, and its current attempt, when that attempt is the one the provider accepted under
   * the id. A message holds the id of its current attempt only (a retry clears it; a fallback
   * follows an attempt that was not accepted), so an update about an attempt the message has moved
   * past finds nothing here, as it should.
   */
  async #byProviderId(
    tx: UnitOfWork,
    instanceId: string,
    externalId: string,
  ): Promise<{ attempt: MessageAttemptRecord; message: MessageRecord } | undefined> {
    const message = await tx.messages.findByExternalId(instanceId, externalId);
    if (message?.direction !== 'outbound' || message.channel === null) return undefined;
    const attempt = await tx.messageAttempts.findById(
      attemptIdOf(message.id, message.retryCount, message.channel),
    );
    if (attempt?.instanceId !== instanceId || attempt.externalId !== externalId) return undefined;
    return { attempt, message };
  }

  /**
   * A group member's receipt: recorded per member, and the group message reaches `delivered`
   * once every member's device has it and `read` once every member has read it (as WhatsApp shows
   * its ticks), so the first reader does not mark it read for everyone. When the gateway does not
   * know the members, the first receipt counts. Answers the status the message reaches, or
   * undefined when it reaches none yet.
   */
  async #groupStatus(
    tx: UnitOfWork,
    message: MessageRecord,
    recipient: string,
    status: 'sent' | 'delivered' | 'read',
  ): Promise<ProviderDeliveryStatus | undefined> {
    if (status === 'sent') return status;
    await tx.messageReceipts.record(message.id, recipient, status, new Date(this.clock.now()));
    const chat =
      message.conversationId !== null
        ? await tx.conversations.findById(message.customerId, message.conversationId)
        : message.providerChatId !== null
          ? await tx.conversations.findByInstanceChat(
              message.customerId,
              message.instanceId,
              message.providerChatId,
            )
          : undefined;
    const members = (chat?.participants ?? []).filter((member) => member.handle !== message.from);
    if (members.length === 0) return status;
    const counts = await tx.messageReceipts.counts(message.id);
    if (counts.read >= members.length) return 'read';
    if (counts.delivered >= members.length) return 'delivered';
    return undefined;
  }

  /**
   * A status of one part of a multi-part send: recorded on the part (forward only), then the
   * parts aggregate into the message: `failed` when any part failed (naming it), otherwise the
   * least advanced status of them all (sent when all are sent, delivered when all are delivered).
   */
  async #applyToPart(
    tx: UnitOfWork,
    part: MessagePartRecord,
    event: ProviderStatusEvent,
  ): Promise<void> {
    if (deliveryRank(event.status) <= deliveryRank(part.status)) return;
    const attempt = await tx.messageAttempts.findById(part.attemptId);
    const message = attempt && (await tx.messages.findByIdInAnyCustomer(attempt.messageId));
    if (
      !attempt ||
      !message ||
      message.retryCount !== attempt.attempt ||
      message.channel !== attempt.channel
    ) {
      return;
    }
    // The parts' updates serialize on their attempt: two parts settled at once would otherwise
    // each see only itself settled (PostgreSQL's snapshots), and neither would move the message.
    await tx.messageAttempts.lock(attempt.attemptId);
    const error = event.status === 'failed' ? event.error : null;
    await tx.messageParts.updateStatus(part.attemptId, part.partIndex, event.status, error);
    const parts = await tx.messageParts.listByAttempt(part.attemptId);
    const externalId = message.externalId ?? attempt.externalId ?? event.externalId;
    if (error) {
      await this.apply(tx, message, {
        status: 'failed',
        externalId,
        error: {
          code: error.code,
          message: `Part ${part.partIndex + 1} of ${parts.length} (${part.kind}) failed: ${error.message}`,
        },
      });
      return;
    }
    const status = leastDelivered(
      parts.map((p) => (p.partIndex === part.partIndex ? event.status : p.status)),
    );
    if (status) await this.apply(tx, message, { status, externalId });
  }

  /**
   * Applies `update` to `message` inside `tx`; returns the message as it now is. A `read` on an
   * SMS counts as `delivered` (the spec: `read` never on sms), whatever the upstream reports (a
   * Messaging Service delivering over RCS, a Mac's SMS chat).
   */
  async apply(
    tx: UnitOfWork,
    message: MessageRecord,
    update: DeliveryUpdate,
  ): Promise<MessageRecord> {
    const reported =
      update.status === 'read' && message.channel === 'sms' ? 'delivered' : update.status;
    const steps = statusesToRecord(message.status, reported);
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
    await tx.messages.update(message.id, patchOf(current, message));
    for (const state of recorded) {
      const type = STATUS_EVENT[state.status as keyof typeof STATUS_EVENT];
      await this.events.lifecycle(tx, type, state, message.correlationId);
    }
    if (current.status === 'failed') await this.onFailed?.(tx, current, update.error);
    return current;
  }
}

/** What of a status update is kept while its attempt waits for its send to be recorded. */
function earlyOf(event: ProviderStatusEvent): EarlyStatusUpdate {
  const { kind: _kind, attemptId: _attemptId, upstreamEventId: _id, occurredAt, ...kept } = event;
  return { ...kept, occurredAt: occurredAt.getTime() };
}

/** A kept update as the event it came as, for the attempt `attemptId`. */
function eventOf(update: EarlyStatusUpdate, attemptId: string): ProviderStatusEvent {
  const { occurredAt, ...kept } = update;
  return { ...kept, kind: 'message.status', occurredAt: new Date(occurredAt), attemptId };
}
