import type { CreateInstanceRequest, Instance } from '@switchboard/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { newUuid } from '../../ids';
import type { InstanceRecord } from '../../store/instance-repository';
import type { UnitOfWork } from '../../store/store';
import { DomainError } from '../domain-error';

/** A validated `POST /admin/v1/instances` body (defaults applied). */
export type CreateInstanceInput = z.output<typeof CreateInstanceRequest>;

/** The API shape of an instance: never its `config`, which may hold credentials. */
export function toInstanceView(record: InstanceRecord): Instance {
  return {
    id: record.id,
    name: record.name,
    provider: record.provider,
    channels: record.channels,
    healthStatus: record.healthStatus,
    createdAt: record.createdAt.toISOString(),
  };
}

/** Operator operations on provider instances. */
export class InstanceService {
  /** Creates the service over the store and the clock. */
  constructor(
    private readonly store: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Registers an instance. Its health is `unknown` until the first health check.
   * @throws {DomainError} ALREADY_EXISTS when the name is taken.
   */
  create(input: CreateInstanceInput): Promise<InstanceRecord> {
    return this.store.transaction(async (tx) => {
      if (await tx.instances.findByName(input.name)) {
        throw new DomainError('ALREADY_EXISTS', `name: an instance named "${input.name}" exists`);
      }
      const record: InstanceRecord = {
        id: newUuid(),
        name: input.name,
        provider: input.provider,
        channels: input.channels,
        config: input.config,
        healthStatus: 'unknown',
        healthWarnings: [],
        healthCheckedAt: null,
        createdAt: new Date(this.clock.now()),
      };
      await tx.instances.insert(record);
      return record;
    });
  }

  /** Every instance, oldest first. */
  list(): Promise<InstanceRecord[]> {
    return this.store.instances.list();
  }
}
