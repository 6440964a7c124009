import type {
  Channel,
  FallbackReason,
  MessageEditedData,
  MessageEditFailedData,
  MessageFallbackData,
  MessageLifecycleData,
} from '@switchboard/contract';
import type { EventRecorder } from '../../events/event-recorder';
import type { MessageRecord } from '../../store/message-repository';
import type { UnitOfWork } from '../../store/store';
import type { ChatSendResolver } from './chat-send-target';

/** The events whose data is exactly the lifecycle fields. */
export type LifecycleEventType =
  | 'message.queued'
  | 'message.sent'
  | 'message.delivered'
  | 'message.read'
  | 'message.failed'
  | 'message.unsent'
  | 'message.deleted'
  | 'message.scheduled'
  | 'message.schedule_cancelled';

/** The lifecycle event reporting a delivery status, by status. */
export const STATUS_EVENT = {
  queued: 'message.queued',
  sent: 'message.sent',
  delivered: 'message.delivered',
  read: 'message.read',
  failed: 'message.failed',
  unsent: 'message.unsent',
  scheduled: 'message.scheduled',
  cancelled: 'message.schedule_cancelled',
} as const satisfies Partial<Record<MessageRecord['status'], LifecycleEventType>>;

/** Why a send moved to another channel. */
export interface FallbackDetails {
  /** The channel left. */
  fromChannel: Channel;
  /** The channel tried next. */
  toChannel: Channel;
  /** `unavailable` (the recipient is not on `fromChannel`) or `send_failed`. */
  reason: FallbackReason;
}

/**
 * Records the events of messages through the outbox, in the caller's transaction: the lifecycle
 * data of the spec, with the chat and sender fragments on chat-keyed sends, the message's
 * `callbackUrl`, and its id for the delivery log.
 */
export class MessageEvents {
  /** Events recorded by `recorder`; `chats` supplies the fragments of chat-keyed sends. */
  constructor(
    private readonly recorder: EventRecorder,
    private readonly chats: ChatSendResolver,
  ) {}

  /** Records a lifecycle event of `message` as it is now. */
  async lifecycle(
    tx: UnitOfWork,
    type: LifecycleEventType,
    message: MessageRecord,
    correlationId: string,
  ): Promise<void> {
    const data = await this.#data(tx, message);
    await this.recorder.record(tx, { ...this.#envelope(message, correlationId), type, data });
  }

  /** Records `message.fallback`. */
  async fallback(
    tx: UnitOfWork,
    message: MessageRecord,
    correlationId: string,
    details: FallbackDetails,
  ): Promise<void> {
    const data: MessageFallbackData = { ...(await this.#data(tx, message)), ...details };
    await this.recorder.record(tx, {
      ...this.#envelope(message, correlationId),
      type: 'message.fallback',
      data,
    });
  }

  /** Records `message.edited`; `message.text` is the new text. */
  async edited(
    tx: UnitOfWork,
    message: MessageRecord,
    correlationId: string,
    previousText: string,
  ): Promise<void> {
    const data: MessageEditedData = { ...(await this.#data(tx, message)), previousText };
    await this.recorder.record(tx, {
      ...this.#envelope(message, correlationId),
      type: 'message.edited',
      data,
    });
  }

  /** Records `message.edit_failed`; `message.text` is still the current text. */
  async editFailed(
    tx: UnitOfWork,
    message: MessageRecord,
    correlationId: string,
    failure: { attemptedText: string; errorCode: string; errorMessage: string },
  ): Promise<void> {
    const { attemptedText, errorCode, errorMessage } = failure;
    // The failure's fields take their places in the lifecycle data (keys keep their first
    // position), then the attempted text, as the contract orders them.
    const base = await this.#data(tx, { ...message, errorCode, errorMessage });
    const data: MessageEditFailedData = { ...base, errorCode, errorMessage, attemptedText };
    await this.recorder.record(tx, {
      ...this.#envelope(message, correlationId),
      type: 'message.edit_failed',
      data,
    });
  }

  #envelope(message: MessageRecord, correlationId: string) {
    return {
      customerId: message.customerId,
      correlationId,
      callbackUrl: message.callbackUrl,
      messageId: message.id,
    };
  }

  /**
   * The lifecycle data, built in the contract's key order (production serializes it as built; the
   * test suite checks it against the validated bytes).
   */
  async #data(tx: UnitOfWork, message: MessageRecord): Promise<MessageLifecycleData> {
    const chatKeyed = message.to === null && message.conversationId !== null;
    const fragments = chatKeyed ? await this.chats.fragments(tx, message) : undefined;
    return {
      messageId: message.id,
      externalMessageId: message.externalId,
      from: message.from,
      ...(chatKeyed ? {} : { to: message.to ?? '' }),
      ...(chatKeyed ? { conversationId: message.conversationId as string } : {}),
      text: message.text,
      channel: message.channel,
      metadata: message.metadata,
      status: message.status,
      ...(message.errorCode === null ? {} : { errorCode: message.errorCode }),
      ...(message.errorMessage === null ? {} : { errorMessage: message.errorMessage }),
      ...(fragments ? { conversation: fragments.conversation, sender: fragments.sender } : {}),
      ...(message.direction === 'inbound' ? { direction: 'inbound' as const } : {}),
      ...(message.source === 'device' ? { source: 'device' as const } : {}),
    };
  }
}
