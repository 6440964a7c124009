import type { Channel } from '@switchboard/contract';
import type { Store } from '../../store/store';

/** One paused sender number and channel of an instance. */
export interface PausedNumber {
  /** The sender number. */
  number: string;
  /** The customer it belongs to. */
  customerId: string;
  /** The channel paused. */
  channel: Channel;
  /** Paused since (epoch ms). */
  since: number;
  /** The verdict that paused it. */
  reason: string;
}

/**
 * The paused sends of an instance's numbers (the delivery watchdog's automatic pause, decision
 * 0682), read from the store: the same in every process and after a restart.
 */
export async function pausedNumbersOf(
  store: Pick<Store, 'numbers' | 'sendPolicies'>,
  instanceId: string,
): Promise<PausedNumber[]> {
  const paused: PausedNumber[] = [];
  for (const phoneNumber of await store.numbers.phoneNumbersOfInstance(instanceId)) {
    const number = await store.numbers.findByAddressInAnyCustomer(phoneNumber);
    if (!number) continue;
    for (const pause of await store.sendPolicies.findPauses(number.id)) {
      if (pause.pausedAt === null) continue;
      paused.push({
        number: phoneNumber,
        customerId: number.customerId,
        channel: pause.channel,
        since: pause.pausedAt,
        reason: pause.reason ?? 'deliveries stalling',
      });
    }
  }
  return paused;
}

/** The health warning of a paused number: what is held, since when, and how to resume it. */
export function pauseWarningOf(paused: PausedNumber): string {
  const { number, customerId, channel } = paused;
  return `sends of ${number} on ${channel} paused by the delivery watchdog since ${new Date(paused.since).toISOString()} (they wait queued, never moved to another number): resume with POST /admin/v1/customers/${customerId}/numbers/${number}/send-policy/resume?channel=${channel} or \`switchboard send-policy resume ${customerId} ${number} --channel ${channel}\``;
}
