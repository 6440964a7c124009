import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock';
import { newId } from '../../ids';
import type { ContactErasureRecord } from '../../store/contact-erasure-repository';
import type { Store } from '../../store/store';
import { DomainError } from '../domain-error';
import { canonicalAddress, erasureTarget } from './contact-address';

/** The server secret that keys the erasure records' address hashes. */
const HASH_KEY_NAME = 'contact-erasure-hash-key';

/** How many erasures a list answers. */
const LIST_LIMIT = 100;

/** Who asks for an erasure, and over which data. */
export interface ErasureScope {
  /** The customer whose data goes; null: every customer's and the kept unrouted items. */
  customerId: string | null;
  /** `api_key:<id>` or `operator`. */
  requestedBy: string;
}

/**
 * Forgets a contact: erases everything held about one address in one transaction and keeps a
 * record of it (who, when, how much) that names the address only by a keyed hash.
 */
export class ContactErasureService {
  #hashKey: Promise<Buffer> | undefined;

  /** A service over the store and clock. */
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * Erases the address within `scope` and answers the record, counts included.
   * @throws {DomainError} NOT_FOUND when the scope names a customer that does not exist.
   */
  async erase(address: string, scope: ErasureScope): Promise<ContactErasureRecord> {
    if (scope.customerId !== null && !(await this.store.customers.findById(scope.customerId))) {
      throw new DomainError('NOT_FOUND', `No customer with id ${scope.customerId}`);
    }
    const addressHash = await this.#hash(canonicalAddress(address));
    const target = erasureTarget(address, scope.customerId);
    return this.store.transaction(async (tx) => {
      const counts = await tx.contactErasures.erase(target);
      const record: ContactErasureRecord = {
        id: newId('era'),
        customerId: scope.customerId,
        addressHash,
        requestedBy: scope.requestedBy,
        counts,
        createdAt: new Date(this.clock.now()),
      };
      await tx.contactErasures.insert(record);
      return record;
    });
  }

  /** The erasures of one customer (or the operator's across customers, with null), newest first. */
  list(customerId: string | null): Promise<ContactErasureRecord[]> {
    return this.store.contactErasures.list(customerId, LIST_LIMIT);
  }

  /** HMAC-SHA-256 of the canonical address under the deployment's erasure key (made once). */
  async #hash(canonical: string): Promise<string> {
    this.#hashKey ??= this.store.serverSecrets
      .getOrCreate(HASH_KEY_NAME, randomBytes(32).toString('base64'), new Date(this.clock.now()))
      .then((value) => Buffer.from(value, 'base64'));
    let key: Buffer;
    try {
      key = await this.#hashKey;
    } catch (error) {
      this.#hashKey = undefined;
      throw error;
    }
    return createHmac('sha256', key).update(canonical).digest('hex');
  }
}

/** The API view of an erasure record. */
export function toContactErasureView(record: ContactErasureRecord) {
  return { ...record, createdAt: record.createdAt.toISOString() };
}
