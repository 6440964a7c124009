import type { MessageStatus } from '@switchboard/contract';
import type { ProviderDeliveryStatus } from '@switchboard/provider-kit';

/** The forward chain of a message: a status only ever moves right along it. */
const CHAIN: readonly MessageStatus[] = [
  'scheduled',
  'queued',
  'pending',
  'sent',
  'delivered',
  'read',
];

/** Position of a status in {@link CHAIN}; -1 for the statuses outside it. */
function rank(status: MessageStatus): number {
  return CHAIN.indexOf(status);
}

/** Statuses from which a message can still fail. */
const FAILABLE_STATUSES: readonly MessageStatus[] = ['queued', 'pending', 'sent'];

/** Statuses of a message the provider has sent: what unsend and edit act on. */
export const SENT_STATUSES: readonly MessageStatus[] = ['sent', 'delivered', 'read'];

/**
 * The statuses a provider update moves a message through, in order; empty when it changes
 * nothing (a late or repeated update, or a message already failed, unsent or cancelled).
 * Statuses implied by a later one are filled in: `read` on a `pending` message records `sent`,
 * `delivered` and `read`, so every timeline tells the whole story.
 */
export function statusesToRecord(
  current: MessageStatus,
  update: ProviderDeliveryStatus,
): MessageStatus[] {
  if (update === 'failed') return FAILABLE_STATUSES.includes(current) ? ['failed'] : [];
  const from = rank(current);
  const to = rank(update);
  // Only messages handed to a provider (queued or later) take delivery updates.
  if (from < rank('queued')) return [];
  if (to <= from) return [];
  return CHAIN.slice(Math.max(from + 1, rank('sent')), to + 1);
}

/** The delivery statuses a message's parts (or a group's members) reach, in order. */
const DELIVERY_ORDER = ['sent', 'delivered', 'read'] as const;

/**
 * How far a delivery status goes: 0 for none yet, then sent, delivered, read; `failed` beyond
 * them all (it overtakes any other).
 */
export function deliveryRank(status: ProviderDeliveryStatus | null): number {
  if (status === null) return 0;
  return status === 'failed' ? DELIVERY_ORDER.length + 1 : DELIVERY_ORDER.indexOf(status) + 1;
}

/** The status every one of `statuses` has reached, or undefined when one has reached none. */
export function leastDelivered(
  statuses: readonly (ProviderDeliveryStatus | null)[],
): (typeof DELIVERY_ORDER)[number] | undefined {
  const least = Math.min(...statuses.map(deliveryRank));
  return DELIVERY_ORDER[least - 1];
}
