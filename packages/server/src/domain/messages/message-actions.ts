import type { Channel, EditMessageRequest, ReactionResult } from '@switchboard/contract';
import type {
  ProviderCapabilities,
  ProviderCapabilityName,
  ProviderMessageRef,
} from '@switchboard/provider-kit';
import { isProviderError, requireCapability } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { ProviderHub } from '../../providers/provider-hub';
import type { MessageRecord } from '../../store/message-repository';
import type { Store } from '../../store/store';
import { DomainError } from '../domain-error';
import { toDomainError } from '../provider-failure';
import type { MessageEvents } from './message-events';
import { visible } from './message-record';
import { SENT_STATUSES } from './message-status';
import { instanceAddressOf, providerRefOf } from './provider-message-ref';
import { recordReaction } from './reaction-state';
import { parseReaction } from './reaction-types';

/** Dependencies of {@link MessageActions}. */
export interface MessageActionsOptions {
  /** The store. */
  store: Store;
  /** The running providers. */
  providers: ProviderHub;
  /** Records message events. */
  events: MessageEvents;
  /** The time source. */
  clock: Clock;
}

/**
 * The operations that act on a message at its provider while the request waits: unsend, edit and
 * reactions. The provider is called outside any transaction; the outcome and its event are then
 * committed together.
 */
export class MessageActions {
  /** The actions over the store and the running providers. */
  constructor(private readonly options: MessageActionsOptions) {}

  /**
   * Unsends a sent iMessage: status `unsent`, `message.unsent`.
   * @throws {DomainError} NOT_FOUND, ALREADY_UNSENT, CHANNEL_NOT_SUPPORTED, INVALID_STATUS,
   * MISSING_EXTERNAL_ID, or the provider's code (PROVIDER_TIMEOUT).
   */
  async unsend(customerId: string, id: string, correlationId: string): Promise<MessageRecord> {
    const message = await this.#load(customerId, id);
    if (message.status === 'unsent') {
      throw new DomainError('ALREADY_UNSENT', `Message ${id} is already unsent`);
    }
    const { ref, channel } = this.#sentIMessage(message, 'unsent');
    await this.#call(message, channel, 'unsend', (capability) =>
      capability.unsend({ channel, from: message.from, message: ref }),
    );
    return this.options.store.transaction(async (tx) => {
      const now = this.options.clock.now();
      const current = visible(await tx.messages.findById(customerId, id), id);
      if (current.status === 'unsent') {
        throw new DomainError('ALREADY_UNSENT', `Message ${id} is already unsent`);
      }
      if (!SENT_STATUSES.includes(current.status)) {
        throw new DomainError('INVALID_STATUS', `Message ${id} is ${current.status}`);
      }
      const unsent: MessageRecord = {
        ...current,
        status: 'unsent',
        timeline: [...current.timeline, { status: 'unsent', at: now, channel: current.channel }],
        updatedAt: new Date(now),
      };
      await tx.messages.update(id, {
        status: unsent.status,
        timeline: unsent.timeline,
        updatedAt: unsent.updatedAt,
      });
      await this.options.events.lifecycle(tx, 'message.unsent', unsent, correlationId);
      return unsent;
    });
  }

  /**
   * Replaces the text of a sent iMessage: `message.edited`; when the provider refuses,
   * `message.edit_failed` and its code (502 EDIT_FAILED, 504 PROVIDER_TIMEOUT).
   * @throws {DomainError} NOT_FOUND, CHANNEL_NOT_SUPPORTED, INVALID_STATUS, MISSING_EXTERNAL_ID,
   * EDIT_FAILED, PROVIDER_TIMEOUT.
   */
  async edit(
    customerId: string,
    id: string,
    request: EditMessageRequest,
    correlationId: string,
  ): Promise<MessageRecord> {
    const message = await this.#load(customerId, id);
    const { ref, channel } = this.#sentIMessage(message, 'edited');
    try {
      const provider = await this.options.providers.provider(message.instanceId);
      await requireCapability(provider, 'edits', channel).edit({
        channel,
        from: message.from,
        message: ref,
        text: request.text,
        ...(request.backwardsCompatibilityMessage === undefined
          ? {}
          : { backwardsCompatibilityMessage: request.backwardsCompatibilityMessage }),
      });
    } catch (error) {
      if (isProviderError(error)) {
        await this.options.store.transaction(async (tx) => {
          const current = (await tx.messages.findById(customerId, id)) ?? message;
          await this.options.events.editFailed(tx, current, correlationId, {
            attemptedText: request.text,
            errorCode: error.code,
            errorMessage: error.message,
          });
        });
      }
      throw toDomainError(error);
    }
    return this.options.store.transaction(async (tx) => {
      const now = new Date(this.options.clock.now());
      const current = visible(await tx.messages.findById(customerId, id), id);
      const edited: MessageRecord = { ...current, text: request.text, updatedAt: now };
      await tx.messages.update(id, { text: edited.text, updatedAt: now });
      await this.options.events.edited(tx, edited, correlationId, current.text);
      return edited;
    });
  }

  /**
   * Adds (or, with a negative form, removes) the sending instance's reaction on a message. One
   * reaction per message per sender: a new one replaces the previous one.
   * @throws {DomainError} NOT_FOUND, CHANNEL_NOT_SUPPORTED (sms), VALIDATION_ERROR (an unknown
   * type on imessage), MISSING_EXTERNAL_ID, or the provider's code.
   */
  async react(customerId: string, id: string, type: string): Promise<ReactionResult> {
    const message = await this.#load(customerId, id);
    if (message.channel === 'sms') {
      throw new DomainError('CHANNEL_NOT_SUPPORTED', 'Reactions are not supported on sms');
    }
    const ref = providerRefOf(message);
    if (!ref || message.channel === null) {
      throw new DomainError(
        'MISSING_EXTERNAL_ID',
        `Message ${id} has no provider id yet (status ${message.status})`,
      );
    }
    const channel = message.channel;
    const parsed = parseReaction(type, channel);
    if (!parsed) {
      throw new DomainError(
        'VALIDATION_ERROR',
        'type: imessage accepts love, like, dislike, laugh, emphasize, question, their negative forms (-love, …) or a single emoji',
      );
    }
    const sender = instanceAddressOf(message);
    await this.#call(message, channel, 'reactions', (capability) =>
      capability.react({
        channel,
        from: sender,
        message: ref,
        reaction: parsed.reaction,
        remove: parsed.remove,
      }),
    );
    await this.options.store.transaction((tx) =>
      recordReaction(tx, {
        messageId: id,
        customerId,
        sender,
        channel,
        reaction: parsed.reaction,
        remove: parsed.remove,
        at: new Date(this.options.clock.now()),
      }),
    );
    return { messageId: id, reaction: parsed.applied };
  }

  async #load(customerId: string, id: string): Promise<MessageRecord> {
    return visible(await this.options.store.messages.findById(customerId, id), id);
  }

  /** The checks unsend and edit share: an outbound iMessage the provider has sent. */
  #sentIMessage(
    message: MessageRecord,
    verb: 'unsent' | 'edited',
  ): { ref: ProviderMessageRef; channel: Channel } {
    if (message.channel !== null && message.channel !== 'imessage') {
      throw new DomainError(
        'CHANNEL_NOT_SUPPORTED',
        `Only imessage messages can be ${verb}; this one went out on ${message.channel}`,
      );
    }
    if (message.direction !== 'outbound') {
      throw new DomainError('INVALID_STATUS', `Only messages you sent can be ${verb}`);
    }
    if (!SENT_STATUSES.includes(message.status) || message.channel === null) {
      throw new DomainError(
        'INVALID_STATUS',
        `Only sent, delivered or read messages can be ${verb}; this one is ${message.status}`,
      );
    }
    const ref = providerRefOf(message);
    if (!ref) {
      throw new DomainError('MISSING_EXTERNAL_ID', `Message ${message.id} has no provider id`);
    }
    return { ref, channel: message.channel };
  }

  /**
   * Calls the capability `name` of the message's provider on its channel, answering its absence
   * with `CHANNEL_NOT_SUPPORTED` and the provider's failures with their spec codes.
   */
  async #call<K extends ProviderCapabilityName>(
    message: MessageRecord,
    channel: Channel,
    name: K,
    operation: (capability: NonNullable<ProviderCapabilities[K]>) => Promise<void>,
  ): Promise<void> {
    try {
      const provider = await this.options.providers.provider(message.instanceId);
      await operation(requireCapability(provider, name, channel));
    } catch (error) {
      throw toDomainError(error);
    }
  }
}
