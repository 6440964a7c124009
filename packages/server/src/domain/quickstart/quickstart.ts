import type { CreatedApiKey } from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { CustomerRecord } from '../../store/customer-repository';
import type { InstanceRecord } from '../../store/instance-repository';
import type { SenderNumberView } from '../../store/number-repository';
import type { Store } from '../../store/store';
import { ApiKeyService } from '../api-keys/api-key-service';
import { CustomerService } from '../customers/customer-service';
import { DomainError } from '../domain-error';
import { InstanceService } from '../instances/instance-service';
import { NumberService } from '../numbers/number-service';

/**
 * The demo sender numbers: the fictional 555-01XX range, never a real subscriber. In the
 * simulator's table 00–09 is the "iMessage delivered and read" row.
 */
export const QUICKSTART_NUMBERS = ['+14155550100', '+14155550101'] as const;

/** What quickstart created. */
export interface QuickstartResult {
  /** The simulator instance. */
  instance: InstanceRecord;
  /** The demo customer. */
  customer: CustomerRecord;
  /** The demo API key, with its plaintext (shown once). */
  apiKey: CreatedApiKey;
  /** The two sender numbers, the default first. */
  numbers: SenderNumberView[];
}

/**
 * Seeds an empty database with a simulator instance, a demo customer, an API key and two sender
 * numbers, all in one transaction.
 * @throws {DomainError} ALREADY_EXISTS when the database already holds customers or instances.
 */
export function runQuickstart(store: Store, clock: Clock): Promise<QuickstartResult> {
  return store.transaction(async (tx) => {
    const [customers, instances] = await Promise.all([tx.customers.count(), tx.instances.count()]);
    if (customers > 0 || instances > 0) {
      throw new DomainError(
        'ALREADY_EXISTS',
        `The database is not empty (${customers} customer(s), ${instances} instance(s)); quickstart only seeds an empty database.`,
      );
    }
    const instance = await new InstanceService({ store: tx, clock }).create({
      name: 'simulator',
      provider: 'simulator',
      channels: ['imessage', 'sms', 'whatsapp'],
      config: {},
      enabled: true,
    });
    const customer = await new CustomerService(tx, clock).create({ name: 'Demo customer' });
    const apiKey = await new ApiKeyService(tx, clock).issue(customer.id, { name: 'quickstart' });
    const numbers = new NumberService(tx, clock);
    for (const [index, phoneNumber] of QUICKSTART_NUMBERS.entries()) {
      await numbers.assign(customer.id, {
        phoneNumber,
        instanceId: instance.id,
        isDefault: index === 0,
      });
    }
    return { instance, customer, apiKey, numbers: await numbers.list(customer.id) };
  });
}
