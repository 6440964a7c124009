import type { InboundContext } from '../../providers/provider-hub';
import type { SenderNumberView } from '../../store/number-repository';
import type { Repositories } from '../../store/store';
import { phoneOfJid } from '../chats/participant-address';

/**
 * The customer's number an inbound event was received on: the receiving address (a WhatsApp
 * phone JID is read as its number) must be assigned to a customer AND served by the instance
 * that reported the event (as the number's own instance, or for one of its channels). Anything else is undefined, and the event is dropped: an instance
 * never speaks for a number it does not serve, so nothing reaches another customer.
 */
export async function findReceivingNumber(
  repos: Repositories,
  context: InboundContext,
  address: string,
): Promise<SenderNumberView | undefined> {
  const number = await repos.numbers.findByAddressInAnyCustomer(phoneOfJid(address) ?? address);
  if (!number) return undefined;
  const serves =
    number.instanceId === context.instanceId ||
    Object.values(number.channelInstances).includes(context.instanceId);
  return serves ? number : undefined;
}
