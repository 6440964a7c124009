import {
  type Channel,
  type CreateInstanceRequest,
  instanceChannelsProblem,
  instanceConfigIssues,
  PROVIDER_CHANNELS,
  type UpdateInstanceRequest,
} from '@switchboard/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { newIngressToken, newUuid } from '../../ids';
import type { InstanceChanges, InstanceRecord } from '../../store/instance-repository';
import type { UnitOfWork } from '../../store/store';
import { DomainError } from '../domain-error';
import { maskSecret, secretFieldsOf } from './instance-view';

/** A validated `POST /admin/v1/instances` body (defaults applied). */
export type CreateInstanceInput = z.output<typeof CreateInstanceRequest>;
/** A validated `PATCH /admin/v1/instances/:id` body. */
export type UpdateInstanceInput = z.output<typeof UpdateInstanceRequest>;

/**
 * What the running side does when an instance changes: the provider hub restarts (or stops) that
 * one instance, live. The CLI, which runs no providers, has none; a running server picks its
 * changes up by itself (see the hub's instance sync).
 */
export interface InstanceLifecycle {
  /** The instance's settings changed: restart it (or start it, or stop it when disabled). */
  changed(instanceId: string): Promise<void>;
}

/** What {@link InstanceService} needs. */
export interface InstanceServiceDeps {
  /** The store. */
  store: UnitOfWork;
  /** The time source. */
  clock: Clock;
  /** Restarts instances live when they change (absent in the CLI). */
  lifecycle?: InstanceLifecycle | undefined;
}

/** The outcome of deleting an instance. */
export interface InstanceDeletion {
  /** The sender numbers withdrawn with it. */
  releasedNumbers: string[];
}

/** Operator operations on provider instances. */
export class InstanceService {
  readonly #store: UnitOfWork;
  readonly #clock: Clock;
  readonly #lifecycle: InstanceLifecycle | undefined;

  /** Creates the service. */
  constructor(deps: InstanceServiceDeps) {
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#lifecycle = deps.lifecycle;
  }

  /**
   * Registers an instance with a fresh ingress token and starts it. Its health is `unknown`
   * until the first health check.
   * @throws {DomainError} ALREADY_EXISTS when the name is taken, VALIDATION_ERROR for a config
   * its provider's schema refuses.
   */
  async create(input: CreateInstanceInput): Promise<InstanceRecord> {
    checkConfig(input.provider, input.config);
    const record = await this.#store.transaction(async (tx) => {
      await assertNameFree(tx, input.name);
      const now = new Date(this.#clock.now());
      const record: InstanceRecord = {
        id: newUuid(),
        name: input.name,
        provider: input.provider,
        channels: input.channels ?? [...PROVIDER_CHANNELS[input.provider]],
        config: input.config,
        enabled: input.enabled,
        ingressToken: newIngressToken(),
        healthStatus: 'unknown',
        healthWarnings: [],
        healthCheckedAt: null,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      };
      await tx.instances.insert(record);
      return record;
    });
    await this.#lifecycle?.changed(record.id);
    return record;
  }

  /** Every instance not deleted, oldest first. */
  list(): Promise<InstanceRecord[]> {
    return this.#store.instances.list();
  }

  /**
   * One instance.
   * @throws {DomainError} NOT_FOUND when it does not exist or was deleted.
   */
  async get(id: string): Promise<InstanceRecord> {
    return found(await this.#store.instances.findById(id), id);
  }

  /**
   * Applies a partial update: `config` is merged into the stored settings (`null` removes a key,
   * a secret sent back masked keeps its value) and validated whole. A change of config, channels
   * or `enabled` restarts the instance.
   * @throws {DomainError} NOT_FOUND, ALREADY_EXISTS (name), VALIDATION_ERROR.
   */
  async update(id: string, input: UpdateInstanceInput): Promise<InstanceRecord> {
    const { record, restart } = await this.#store.transaction(async (tx) => {
      const current = found(await tx.instances.findById(id), id);
      const changes: InstanceChanges = {};
      if (input.name !== undefined && input.name !== current.name) {
        await assertNameFree(tx, input.name);
        changes.name = input.name;
      }
      if (input.channels !== undefined) {
        checkChannels(current.provider, input.channels);
        changes.channels = input.channels;
      }
      if (input.config !== undefined) {
        const config = mergeConfig(current, input.config);
        checkConfig(current.provider, config);
        changes.config = config;
      }
      if (input.enabled !== undefined) changes.enabled = input.enabled;
      const restart =
        changes.channels !== undefined ||
        changes.config !== undefined ||
        (changes.enabled !== undefined && changes.enabled !== current.enabled);
      changes.updatedAt = new Date(this.#clock.now());
      await tx.instances.update(id, changes);
      return { record: { ...current, ...changes } as InstanceRecord, restart };
    });
    if (restart) await this.#lifecycle?.changed(id);
    return record;
  }

  /**
   * Issues a new ingress token: the old ingress URL stops working at once, and the instance
   * restarts with the new one.
   * @throws {DomainError} NOT_FOUND.
   */
  async rotateIngressToken(id: string): Promise<InstanceRecord> {
    const record = await this.#store.transaction(async (tx) => {
      const current = found(await tx.instances.findById(id), id);
      const changes = { ingressToken: newIngressToken(), updatedAt: new Date(this.#clock.now()) };
      await tx.instances.update(id, changes);
      return { ...current, ...changes };
    });
    await this.#lifecycle?.changed(id);
    return record;
  }

  /**
   * Deletes an instance: stopped, its secrets and provider state wiped, hidden from lists, its
   * name free again; messages that name it stay readable.
   * @throws {DomainError} NOT_FOUND, INSTANCE_IN_USE while numbers use it and `force` is false.
   */
  async delete(id: string, force: boolean): Promise<InstanceDeletion> {
    const deletion = await this.#store.transaction(async (tx) => {
      const current = found(await tx.instances.findById(id), id);
      const numbers = await tx.numbers.phoneNumbersOfInstance(id);
      if (numbers.length > 0 && !force) {
        throw new DomainError(
          'INSTANCE_IN_USE',
          `The instance "${current.name}" serves ${numbers.join(', ')}: withdraw them first, or delete with force=true`,
        );
      }
      const releasedNumbers = await tx.numbers.deleteAllOfInstance(id);
      await tx.providerState.deletePrefix(id, '');
      await tx.providerLeases.deleteAll(id);
      const now = new Date(this.#clock.now());
      await tx.instances.update(id, {
        // The name is unique among live instances: the tombstone takes a name of its own.
        name: `${current.name} (deleted ${id})`,
        config: {},
        enabled: false,
        ingressToken: newIngressToken(),
        updatedAt: now,
        deletedAt: now,
      });
      return { releasedNumbers };
    });
    await this.#lifecycle?.changed(id);
    return deletion;
  }
}

function found(record: InstanceRecord | undefined, id: string): InstanceRecord {
  if (!record || record.deletedAt !== null) {
    throw new DomainError('NOT_FOUND', `No instance ${id} exists`);
  }
  return record;
}

async function assertNameFree(tx: UnitOfWork, name: string): Promise<void> {
  if (await tx.instances.findByName(name)) {
    throw new DomainError('ALREADY_EXISTS', `name: an instance named "${name}" exists`);
  }
}

function checkChannels(provider: InstanceRecord['provider'], channels: readonly Channel[]): void {
  const problem = instanceChannelsProblem(provider, channels);
  if (problem) throw new DomainError('VALIDATION_ERROR', `channels: ${problem}`);
}

/**
 * Checks a whole config against its provider's schema (the request schemas check creations;
 * this also covers merged updates and the CLI).
 */
function checkConfig(provider: InstanceRecord['provider'], config: Record<string, unknown>): void {
  const [issue] = instanceConfigIssues(provider, config);
  if (!issue) return;
  throw new DomainError(
    'VALIDATION_ERROR',
    `${['config', ...issue.path].join('.')}: ${issue.message}`,
  );
}

/** The stored config with `patch` merged in: `null` removes, a masked secret keeps its value. */
function mergeConfig(
  current: Pick<InstanceRecord, 'provider' | 'config'>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current.config };
  const secrets = secretFieldsOf(current.provider);
  for (const [key, value] of Object.entries(patch)) {
    const stored = current.config[key];
    if (value === null) delete merged[key];
    else if (secrets.includes(key) && typeof stored === 'string' && value === maskSecret(stored)) {
      merged[key] = stored;
    } else merged[key] = value;
  }
  return merged;
}
