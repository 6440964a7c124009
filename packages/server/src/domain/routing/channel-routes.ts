import type { Channel } from '@switchboard/contract';
import type { MessageRecord } from '../../store/message-repository';
import type { Repositories } from '../../store/store';
import { channelInstanceOf } from '../numbers/channel-instance';
import type { RouteStop } from './channel-planner';
import { channelsToTry } from './routing-plan';

/**
 * Which instance carries each channel of `message`: a chat's own instance for chat-keyed and
 * group sends; otherwise the sender number's instance, or the one its `channelInstances` names
 * for that channel (a number whose SMS goes through Twilio while iMessage stays on the Mac).
 */
async function channelRoutes(
  repos: Pick<Repositories, 'numbers'>,
  message: MessageRecord,
): Promise<(channel: Channel) => string> {
  if (message.pinnedChannel !== null) return () => message.instanceId;
  const number = await repos.numbers.findByAddress(message.customerId, message.from);
  if (!number) return () => message.instanceId;
  return (channel) => channelInstanceOf(number, channel);
}

/**
 * The channels `message` may use, in the order a send tries them, each with the instance that
 * would carry it: the plan of a delivery attempt (worked out once per attempt), and what the size
 * check of a send's files reads limits from.
 */
export async function routedChannels(
  repos: Pick<Repositories, 'numbers'>,
  message: MessageRecord,
): Promise<RouteStop[]> {
  const routeOf = await channelRoutes(repos, message);
  return channelsToTry(message).map((channel) => ({ channel, instanceId: routeOf(channel) }));
}
