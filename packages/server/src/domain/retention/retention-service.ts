import type { Clock } from '../../clock';
import type { RetentionKind, RetentionPeriods } from '../../store/retention-repository';
import type { Store } from '../../store/store';
import { DomainError } from '../domain-error';
import {
  effectivePeriods,
  NO_OVERRIDES,
  overridesTooLong,
  RETENTION_KINDS,
} from './retention-policy';

/** A customer's retention as the operator API answers it. */
export interface CustomerRetentionView {
  /** The customer. */
  customerId: string;
  /** The deployment's periods. */
  deployment: RetentionPeriods;
  /** The customer's own (null: the deployment's). */
  overrides: RetentionPeriods;
  /** What applies. */
  effective: RetentionPeriods;
}

/** The operator's per-customer retention periods: read, and set within the deployment's. */
export class RetentionService {
  /** A service over the store, with the deployment's periods. */
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly deployment: RetentionPeriods,
  ) {}

  /**
   * The customer's retention.
   * @throws {DomainError} NOT_FOUND when the customer does not exist.
   */
  async get(customerId: string): Promise<CustomerRetentionView> {
    await this.#requireCustomer(customerId);
    const stored = await this.store.retention.findOverride(customerId);
    return this.#view(customerId, stored?.periods ?? NO_OVERRIDES);
  }

  /**
   * Sets the customer's overrides (fields left out keep their value).
   * @throws {DomainError} VALIDATION_ERROR when one is longer than the deployment's period.
   */
  async update(
    customerId: string,
    changes: { [K in RetentionKind]?: number | null | undefined },
  ): Promise<CustomerRetentionView> {
    await this.#requireCustomer(customerId);
    const stored = await this.store.retention.findOverride(customerId);
    const periods = { ...(stored?.periods ?? NO_OVERRIDES) };
    for (const kind of RETENTION_KINDS) {
      const value = changes[kind];
      if (value !== undefined) periods[kind] = value;
    }
    const tooLong = overridesTooLong(this.deployment, periods);
    if (tooLong.length > 0) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `a customer's retention is at most the deployment's: ${tooLong
          .map((kind) => `${kind} is at most ${this.deployment[kind]} days`)
          .join(', ')}`,
      );
    }
    await this.store.retention.saveOverride({
      customerId,
      periods,
      updatedAt: new Date(this.clock.now()),
    });
    return this.#view(customerId, periods);
  }

  #view(customerId: string, overrides: RetentionPeriods): CustomerRetentionView {
    return {
      customerId,
      deployment: this.deployment,
      overrides,
      effective: effectivePeriods(this.deployment, overrides),
    };
  }

  async #requireCustomer(customerId: string): Promise<void> {
    if (!(await this.store.customers.findById(customerId))) {
      throw new DomainError('NOT_FOUND', `No customer with id ${customerId}`);
    }
  }
}
