import type { Message } from '@switchboard/contract';

/**
 * Whether `message` was delivered, or read already. The fake Mac reports a one-to-one iMessage read
 * one step after delivered, so a poll on a busy host may never see the moment between the two.
 */
export function deliveredOrRead(message: Pick<Message, 'status'>): boolean {
  return message.status === 'delivered' || message.status === 'read';
}
