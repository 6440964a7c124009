import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '@switchboard/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { newUuid } from '../../ids';
import type { ApiKeyRecord } from '../../store/api-key-repository';
import type { CustomerRecord } from '../../store/customer-repository';
import type { UnitOfWork } from '../../store/store';
import { customerNotFound } from '../customers/customer-service';
import { DomainError } from '../domain-error';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-secret';

/** A validated `POST /admin/v1/customers/:id/api-keys` body. */
export type CreateApiKeyInput = z.output<typeof CreateApiKeyRequest>;

/** The outcome of presenting an API key. */
export type Authentication =
  | { outcome: 'authenticated'; customer: CustomerRecord; apiKey: ApiKeyRecord }
  /** Missing, malformed, unknown or revoked: indistinguishable to the caller. */
  | { outcome: 'unauthorized' }
  /** A valid key whose customer was deleted. */
  | { outcome: 'forbidden' };

/** A key as listed: never its hash. */
export function toApiKeyView(record: ApiKeyRecord): ApiKey {
  return {
    id: record.id,
    customerId: record.customerId,
    name: record.name,
    prefix: record.prefix,
    createdAt: record.createdAt.toISOString(),
    revokedAt: record.revokedAt?.toISOString() ?? null,
  };
}

/** Issuing, listing, revoking and checking API keys. */
export class ApiKeyService {
  /** Creates the service over the store and the clock. */
  constructor(
    private readonly store: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Issues a key for a live customer. The plaintext is in the answer and nowhere else: only its
   * SHA-256 hash is stored.
   * @throws {DomainError} NOT_FOUND for an unknown or deleted customer.
   */
  issue(customerId: string, input: CreateApiKeyInput = {}): Promise<CreatedApiKey> {
    return this.store.transaction(async (tx) => {
      const customer = await tx.customers.findById(customerId);
      if (!customer || customer.deletedAt) throw customerNotFound(customerId);
      const secret = generateApiKey();
      const record: ApiKeyRecord = {
        id: newUuid(),
        customerId,
        name: input.name ?? null,
        prefix: secret.prefix,
        keyHash: secret.hash,
        createdAt: new Date(this.clock.now()),
        revokedAt: null,
      };
      await tx.apiKeys.insert(record);
      return { ...toApiKeyView(record), key: secret.plaintext };
    });
  }

  /**
   * The customer's keys, revoked ones included.
   * @throws {DomainError} NOT_FOUND for an unknown or deleted customer.
   */
  async list(customerId: string): Promise<ApiKeyRecord[]> {
    const customer = await this.store.customers.findById(customerId);
    if (!customer || customer.deletedAt) throw customerNotFound(customerId);
    return this.store.apiKeys.listByCustomer(customerId);
  }

  /**
   * Revokes a key at once; revoking a revoked key returns it unchanged.
   * @throws {DomainError} NOT_FOUND for an unknown key.
   */
  async revoke(keyId: string): Promise<ApiKeyRecord> {
    const key = await this.store.apiKeys.revoke(keyId, new Date(this.clock.now()));
    if (!key) throw new DomainError('NOT_FOUND', `No API key with id ${keyId}`);
    return key;
  }

  /** Checks a presented key: the hash is the lookup, so no plaintext comparison happens. */
  async authenticate(presented: string | undefined): Promise<Authentication> {
    if (presented === undefined || !looksLikeApiKey(presented)) return { outcome: 'unauthorized' };
    const found = await this.store.apiKeys.findByHashWithCustomer(hashApiKey(presented));
    if (!found || found.apiKey.revokedAt) return { outcome: 'unauthorized' };
    const { apiKey, customer } = found;
    if (!customer || customer.deletedAt) return { outcome: 'forbidden' };
    return { outcome: 'authenticated', customer, apiKey };
  }
}
