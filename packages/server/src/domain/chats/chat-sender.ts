import type { ConversationChannel } from '../../store/conversation-repository';
import type { InstanceRecord } from '../../store/instance-repository';
import type { SenderNumberView } from '../../store/number-repository';
import type { Repositories } from '../../store/store';
import { DomainError } from '../domain-error';
import { channelInstanceOf } from '../numbers/channel-instance';

/** The customer's number a chat operation acts from, and the instance that serves the channel. */
export interface ChatSender {
  /** The sender number. */
  number: SenderNumberView;
  /** The instance carrying the chat's channel for it (its own or a `channelInstances` one). */
  instance: InstanceRecord;
}

/**
 * The instance a new group is created from: the `from` number when given (it must be the
 * customer's, else 403 `ADDRESS_NOT_AUTHORIZED`, and serve the channel), otherwise the customer's
 * default number when its instance serves the channel, else their first number that does.
 * @throws {DomainError} ADDRESS_NOT_AUTHORIZED, VALIDATION_ERROR, NO_DEFAULT_ADDRESS.
 */
export async function resolveChatSender(
  repos: Repositories,
  customerId: string,
  channel: ConversationChannel,
  from: string | undefined,
): Promise<ChatSender> {
  if (from !== undefined) {
    const number = await repos.numbers.findByAddress(customerId, from);
    if (!number) {
      throw new DomainError(
        'ADDRESS_NOT_AUTHORIZED',
        `${from} is not one of your sender addresses`,
      );
    }
    const instance = await repos.instances.findById(channelInstanceOf(number, channel));
    if (!instance?.channels.includes(channel)) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `from: ${from} is served by an instance that does not serve ${channel}`,
      );
    }
    return { number, instance };
  }
  // listByCustomer answers the default first, then the oldest: the preference order wanted here.
  for (const number of await repos.numbers.listByCustomer(customerId)) {
    const instance = await repos.instances.findById(channelInstanceOf(number, channel));
    if (instance?.channels.includes(channel)) return { number, instance };
  }
  throw new DomainError(
    'NO_DEFAULT_ADDRESS',
    `You have no sender number on an instance serving ${channel}; pass from or ask your operator for one`,
  );
}
