import type { CreateCustomerRequest, Customer } from '@switchboard/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { newUuid } from '../../ids';
import type { CustomerRecord } from '../../store/customer-repository';
import type { UnitOfWork } from '../../store/store';
import { DomainError } from '../domain-error';

/** A validated `POST /admin/v1/customers` body (defaults applied). */
export type CreateCustomerInput = z.output<typeof CreateCustomerRequest>;

/** The API shape of a customer. */
export function toCustomerView(record: CustomerRecord): Customer {
  return {
    id: record.id,
    name: record.name,
    settings: record.settings,
    createdAt: record.createdAt.toISOString(),
  };
}

/** Operator operations on customer accounts. */
export class CustomerService {
  /** Creates the service over the store and the clock. */
  constructor(
    private readonly store: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Creates a customer. */
  async create(input: CreateCustomerInput): Promise<CustomerRecord> {
    const record: CustomerRecord = {
      id: newUuid(),
      name: input.name,
      settings: {
        otpHandling: input.settings?.otpHandling ?? 'suppress',
        optOutHandling: input.settings?.optOutHandling ?? 'gateway',
      },
      createdAt: new Date(this.clock.now()),
      deletedAt: null,
    };
    await this.store.customers.insert(record);
    return record;
  }

  /** Every customer that is not deleted, oldest first. */
  list(): Promise<CustomerRecord[]> {
    return this.store.customers.listActive();
  }

  /**
   * The live customer with this id.
   * @throws {DomainError} NOT_FOUND when it does not exist or was deleted.
   */
  async get(id: string): Promise<CustomerRecord> {
    const customer = await this.store.customers.findById(id);
    if (!customer || customer.deletedAt) throw customerNotFound(id);
    return customer;
  }

  /**
   * Deletes a customer: its keys answer 403 from now on and its sender numbers are released so
   * they can be assigned again. The record stays, so a key can tell "deleted" from "unknown".
   * @throws {DomainError} NOT_FOUND when it does not exist or was already deleted.
   */
  async delete(id: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      if (!(await tx.customers.markDeleted(id, new Date(this.clock.now())))) {
        throw customerNotFound(id);
      }
      await tx.numbers.deleteAllOfCustomer(id);
    });
  }
}

/** The error for a customer id that does not exist (or no longer does). */
export function customerNotFound(id: string): DomainError {
  return new DomainError('NOT_FOUND', `No customer with id ${id}`);
}
