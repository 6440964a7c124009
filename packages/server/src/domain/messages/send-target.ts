import { type Channel, recipientKind, type SendMessageRequest } from '@switchboard/contract';
import type { SenderNumberView } from '../../store/number-repository';
import type { Store } from '../../store/store';
import type { AvailabilityCache } from '../capabilities/availability-cache';
import { DomainError } from '../domain-error';
import type { OptOutLedger } from '../opt-outs/opt-out-ledger';
import { isRetryable } from '../provider-failure';
import { channelsToTry } from '../routing/routing-plan';
import type { ChatSendResolver } from './chat-send-target';

/** The default routing of a send: iMessage first, then SMS. */
const DEFAULT_PREFERENCE: readonly Channel[] = ['imessage', 'sms'];

/** Where a send goes and through what, once the request's references are resolved. */
export interface SendTarget {
  /** The sender address. */
  from: string;
  /** The instance that sends. */
  instanceId: string;
  /** The recipient; null on chat-keyed sends. */
  to: string | null;
  /** The chat of a chat-keyed send. */
  conversationId: string | null;
  /** The provider chat the message goes to (a chat-keyed send, or a WhatsApp group JID). */
  providerChatId: string | null;
  /** True for a group. */
  isGroup: boolean;
  /** The only channel of a chat-keyed or group send. */
  pinnedChannel: Channel | null;
  /** Channels to try, in order. */
  preference: Channel[];
  /** Whether to move on to the next channel. */
  fallback: boolean;
}

/** Resolves the sender, the instance and the route of a send (spec rules 3 and 12). */
export class SendTargetResolver {
  /** A resolver over the store and the availability cache. */
  constructor(
    private readonly store: Store,
    private readonly availability: AvailabilityCache,
    private readonly chats: ChatSendResolver,
    private readonly budgetMs: number,
    /** Refuses sends to recipients who opted out of the sender. */
    private readonly optOuts?: Pick<OptOutLedger, 'assertMaySend'>,
  ) {}

  /**
   * The target of a send: a chat-keyed send through `chats`, otherwise the `from` number's
   * instance (or the default number's) and the routing of the body.
   * @throws {DomainError} ADDRESS_NOT_AUTHORIZED, NO_DEFAULT_ADDRESS, RECIPIENT_OPTED_OUT,
   * NO_CHANNEL_AVAILABLE and the chats' codes.
   */
  async resolve(customerId: string, body: SendMessageRequest): Promise<SendTarget> {
    const chatKey = body.chatId ?? body.conversationId;
    if (chatKey !== undefined) {
      const chat = await this.chats.resolve(customerId, chatKey, body.from);
      return {
        from: chat.from,
        instanceId: chat.instanceId,
        to: null,
        conversationId: chat.conversationId,
        providerChatId: chat.chatId,
        isGroup: chat.isGroup,
        pinnedChannel: chat.channel,
        preference: [chat.channel],
        fallback: false,
      };
    }
    const to = body.to ?? '';
    // The sender's number comes with its instance's channels (one join, no second read).
    const sender = await this.#sender(customerId, body.from);
    const preference = [...(body.routing?.preference ?? DEFAULT_PREFERENCE)];
    const fallback = body.routing?.fallback ?? true;
    // A WhatsApp group JID names a chat on one channel: routing does not apply to it.
    const isGroup = recipientKind(to) === 'group';
    if (!isGroup) await this.optOuts?.assertMaySend(customerId, sender.phoneNumber, to);
    const target: SendTarget = {
      from: sender.from,
      instanceId: sender.instanceId,
      to,
      conversationId: null,
      providerChatId: isGroup ? to : null,
      isGroup,
      pinnedChannel: isGroup ? 'whatsapp' : null,
      preference: isGroup ? ['whatsapp'] : preference,
      fallback: isGroup ? false : fallback,
    };
    // Each channel and the id of the instance that carries it for this number.
    const serving = new Map<Channel, string>();
    for (const channel of sender.instanceChannels) serving.set(channel, sender.instanceId);
    for (const [channel, id] of Object.entries(sender.channelInstances) as [Channel, string][]) {
      const other = await this.store.instances.findById(id);
      if (other && other.deletedAt === null && other.channels.includes(channel)) {
        serving.set(channel, other.id);
      } else {
        serving.delete(channel);
      }
    }
    await this.#assertReachable(customerId, serving, target);
    return target;
  }

  /**
   * The sender's number (with its instance's channels) and the address the send is from: `from`
   * when authorized, else the default number's phone number.
   */
  async #sender(
    customerId: string,
    from: string | undefined,
  ): Promise<SenderNumberView & { from: string }> {
    if (from !== undefined) {
      const number = await this.store.numbers.findByAddress(customerId, from);
      if (!number) {
        throw new DomainError(
          'ADDRESS_NOT_AUTHORIZED',
          `from: ${from} is not one of your sender addresses (see GET /v1/numbers)`,
        );
      }
      return { ...number, from };
    }
    const fallbackNumber = await this.store.numbers.findDefault(customerId);
    if (!fallbackNumber) {
      throw new DomainError(
        'NO_DEFAULT_ADDRESS',
        'No `from` given and no default sender address is configured for your account',
      );
    }
    return { ...fallbackNumber, from: fallbackNumber.phoneNumber };
  }

  /**
   * Refuses a send that no allowed channel can reach: a channel counts when the instance serves
   * it and its provider says the recipient is on it (cached answers). The provider has
   * `budgetMs` to answer: a slower answer, or an upstream that cannot be asked (a retryable
   * error), accepts the send and leaves the routing to the worker. Only a definite "no" on every
   * allowed channel refuses it.
   */
  async #assertReachable(
    customerId: string,
    serving: ReadonlyMap<Channel, string>,
    target: SendTarget,
  ): Promise<void> {
    const channels = channelsToTry({
      pinnedChannel: target.pinnedChannel,
      routingPreference: target.preference,
      routingFallback: target.fallback,
    }).filter((channel) => serving.has(channel));
    const recipient = target.to ?? '';
    if (channels.length > 0 && target.pinnedChannel === null) {
      // Each instance is asked about the channels it carries for this number.
      const byInstance = new Map<string, Channel[]>();
      for (const channel of channels) {
        const id = serving.get(channel) ?? '';
        byInstance.set(id, [...(byInstance.get(id) ?? []), channel]);
      }
      for (const [instanceId, carried] of byInstance) {
        const answer = await this.#withinBudget(
          this.availability.lookup(customerId, instanceId, recipient, target.from),
        );
        if (answer === undefined) return;
        const { channels: reach } = answer.availability;
        if (carried.some((channel) => reach[channel] !== false)) return;
      }
    } else if (channels.length > 0) {
      return;
    }
    const tried = target.fallback ? target.preference.join(', ') : target.preference[0];
    throw new DomainError(
      'NO_CHANNEL_AVAILABLE',
      `${recipient} cannot be reached on ${tried}${target.fallback ? '' : ' (routing.fallback is false)'}`,
    );
  }

  /**
   * The lookup's answer, or undefined when it takes longer than the budget or the upstream
   * cannot be asked now (a retryable failure); other failures (an instance that cannot be
   * built) reject as before.
   */
  async #withinBudget<T>(lookup: Promise<T>): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.budgetMs);
      timer.unref();
    });
    // A late answer is still cached by the lookup, for the worker; its failure is the worker's.
    lookup.catch(() => undefined);
    try {
      return await Promise.race([lookup, timeout]);
    } catch (error) {
      if (isRetryable(error)) return undefined;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
