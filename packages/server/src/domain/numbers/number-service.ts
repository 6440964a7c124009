import type { AssignedNumber, AssignNumberRequest, SenderNumber } from '@switchboard/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { newUuid } from '../../ids';
import type { ChannelInstanceMap, SenderNumberView } from '../../store/number-repository';
import type { Repositories, UnitOfWork } from '../../store/store';
import type { Channel } from '../../store/store-types';
import { customerNotFound } from '../customers/customer-service';
import { DomainError } from '../domain-error';

/** A validated `POST /admin/v1/customers/:id/numbers` body (defaults applied). */
export type AssignNumberInput = z.output<typeof AssignNumberRequest>;

/** The customer-facing shape of a sender number (`GET /v1/numbers`). */
export function toSenderNumberView(number: SenderNumberView): SenderNumber {
  return {
    phoneNumber: number.phoneNumber,
    email: number.email,
    instanceName: number.instanceName,
    isDefault: number.isDefault,
    healthStatus: number.healthStatus,
  };
}

/** The operator's shape of a sender number. */
export function toAssignedNumberView(number: SenderNumberView): AssignedNumber {
  return {
    phoneNumber: number.phoneNumber,
    email: number.email,
    customerId: number.customerId,
    instanceId: number.instanceId,
    instanceName: number.instanceName,
    channelInstances: number.channelInstances,
    isDefault: number.isDefault,
    healthStatus: number.healthStatus,
    createdAt: number.createdAt.toISOString(),
  };
}

async function requireLiveCustomer(repos: Repositories, customerId: string): Promise<void> {
  const customer = await repos.customers.findById(customerId);
  if (!customer || customer.deletedAt) throw customerNotFound(customerId);
}

/**
 * The per-channel instances of a number, checked: each exists, is not deleted and serves the
 * channel it is given for.
 * @throws {DomainError} VALIDATION_ERROR naming the channel.
 */
async function validChannelInstances(
  repos: Repositories,
  requested: Partial<Record<Channel, string | undefined>>,
): Promise<ChannelInstanceMap> {
  const map: ChannelInstanceMap = {};
  for (const [channel, instanceId] of Object.entries(requested) as [
    Channel,
    string | undefined,
  ][]) {
    if (instanceId === undefined) continue;
    const instance = await repos.instances.findById(instanceId);
    if (!instance || instance.deletedAt !== null) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `channelInstances.${channel}: no instance ${instanceId}`,
      );
    }
    if (!instance.channels.includes(channel)) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `channelInstances.${channel}: the instance "${instance.name}" does not serve ${channel}`,
      );
    }
    map[channel] = instance.id;
  }
  return map;
}

/** Sender numbers: the addresses a customer may send from. */
export class NumberService {
  /** Creates the service over the store and the clock. */
  constructor(
    private readonly store: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Authorizes a sender address for a customer. Addresses are unique across customers; making
   * this one the default replaces the previous default.
   * @throws {DomainError} NOT_FOUND (customer), VALIDATION_ERROR (an instance unknown, or not
   * serving the channel it is given for), ALREADY_EXISTS.
   */
  assign(customerId: string, input: AssignNumberInput): Promise<SenderNumberView> {
    return this.store.transaction(async (tx) => {
      await requireLiveCustomer(tx, customerId);
      const instance = await tx.instances.findById(input.instanceId);
      if (!instance) {
        throw new DomainError('VALIDATION_ERROR', `instanceId: no instance ${input.instanceId}`);
      }
      for (const address of [input.phoneNumber, input.email]) {
        if (address !== undefined && (await tx.numbers.findByAddressInAnyCustomer(address))) {
          throw new DomainError('ALREADY_EXISTS', `${address} is already assigned to a customer`);
        }
      }
      const channelInstances = await validChannelInstances(tx, input.channelInstances ?? {});
      if (input.isDefault) await tx.numbers.clearDefault(customerId);
      const record = {
        id: newUuid(),
        customerId,
        instanceId: instance.id,
        channelInstances,
        phoneNumber: input.phoneNumber,
        email: input.email ?? null,
        isDefault: input.isDefault,
        createdAt: new Date(this.clock.now()),
      };
      await tx.numbers.insert(record);
      return {
        ...record,
        instanceName: instance.name,
        healthStatus: instance.healthStatus,
        instanceChannels: instance.channels,
      };
    });
  }

  /**
   * The customer's numbers, the default first. Callers on the customer API pass the
   * authenticated customer, so this never sees another customer's numbers.
   */
  list(customerId: string): Promise<SenderNumberView[]> {
    return this.store.numbers.listByCustomer(customerId);
  }

  /**
   * The numbers of a customer, for the operator.
   * @throws {DomainError} NOT_FOUND for an unknown or deleted customer.
   */
  async listForOperator(customerId: string): Promise<SenderNumberView[]> {
    await requireLiveCustomer(this.store, customerId);
    return this.store.numbers.listByCustomer(customerId);
  }

  /**
   * Withdraws a sender address from a customer.
   * @throws {DomainError} NOT_FOUND for an unknown customer or a number it does not have.
   */
  remove(customerId: string, phoneNumber: string): Promise<void> {
    return this.store.transaction(async (tx) => {
      await requireLiveCustomer(tx, customerId);
      if (!(await tx.numbers.delete(customerId, phoneNumber))) {
        throw new DomainError('NOT_FOUND', `Customer ${customerId} has no number ${phoneNumber}`);
      }
    });
  }
}
