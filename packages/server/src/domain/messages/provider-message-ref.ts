import type { ProviderDestination, ProviderMessageRef } from '@switchboard/provider-kit';
import type { MessageRecord } from '../../store/message-repository';

/** Where an outbound message went, or where an inbound one came from, as providers address it. */
export function destinationOf(message: MessageRecord): ProviderDestination {
  if (message.providerChatId !== null) return { type: 'chat', chatId: message.providerChatId };
  const address = message.direction === 'outbound' ? message.to : message.from;
  return { type: 'address', address: address ?? '' };
}

/**
 * A stored message as providers address it again (edit, unsend, react, reply, status look-ups);
 * undefined when no provider id is known for it.
 */
export function providerRefOf(message: MessageRecord): ProviderMessageRef | undefined {
  if (message.externalId === null) return undefined;
  const outbound = message.direction === 'outbound';
  return {
    externalId: message.externalId,
    conversation: destinationOf(message),
    fromMe: outbound,
    ...(!outbound && message.isGroup ? { author: message.from } : {}),
  };
}

/** The instance address acting on a message: its sender, or for an inbound one, its receiver. */
export function instanceAddressOf(message: MessageRecord): string {
  return message.direction === 'outbound' ? message.from : (message.to ?? message.from);
}
