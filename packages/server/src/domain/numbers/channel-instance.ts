import type { Channel } from '@switchboard/contract';
import type { SenderNumberRecord } from '../../store/number-repository';

/**
 * The id of the instance that carries `channel` for `number`: the one its `channelInstances`
 * names for that channel (a number whose WhatsApp is lent to a Baileys instance), else the
 * number's own. Sends, WhatsApp sessions and chats all route a channel through it.
 */
export function channelInstanceOf(
  number: Pick<SenderNumberRecord, 'instanceId' | 'channelInstances'>,
  channel: Channel,
): string {
  return number.channelInstances[channel] ?? number.instanceId;
}
