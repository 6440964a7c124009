import type { Channel } from '@switchboard/contract';
import type { MessageRecord } from '../../store/message-repository';
import type { Repositories } from '../../store/store';

/**
 * Which instance carries each channel of `message`: a chat's own instance for chat-keyed and
 * group sends; otherwise the sender number's instance, or the one its `channelInstances` names
 * for that channel (a number whose SMS goes through Twilio while iMessage stays on the Mac).
 */
export async function channelRoutes(
  repos: Pick<Repositories, 'numbers'>,
  message: MessageRecord,
): Promise<(channel: Channel) => string> {
  if (message.pinnedChannel !== null) return () => message.instanceId;
  const number = await repos.numbers.findByAddress(message.customerId, message.from);
  if (!number) return () => message.instanceId;
  return (channel) => number.channelInstances[channel] ?? number.instanceId;
}
