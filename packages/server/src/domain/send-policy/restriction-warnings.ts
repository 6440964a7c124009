import type { Clock } from '../../clock';
import type { Store } from '../../store/store';

/**
 * The health warnings of an instance whose numbers WhatsApp restricted: one sentence per number
 * still restricted, saying why and until when (a source of the provider hub's warnings).
 */
export async function restrictionWarnings(
  store: Store,
  clock: Clock,
  instanceId: string,
): Promise<string[]> {
  const now = clock.now();
  const warnings: string[] = [];
  for (const phoneNumber of await store.numbers.phoneNumbersOfInstance(instanceId)) {
    const number = await store.numbers.findByAddressInAnyCustomer(phoneNumber);
    if (!number) continue;
    const restriction = await store.sendPolicies.findRestriction(number.id);
    const until = restriction?.restrictedUntil ?? null;
    if (until === null || until <= now) continue;
    warnings.push(
      `WhatsApp restricted ${phoneNumber} (error ${restriction?.code ?? 'unknown'}: ${restriction?.reason ?? 'no reason given'}): messages to people who never wrote to it wait until ${new Date(until).toISOString()}`,
    );
  }
  return warnings;
}
