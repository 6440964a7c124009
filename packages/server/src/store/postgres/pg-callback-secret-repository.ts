import { eq } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type { CallbackSecretRecord, CallbackSecretRepository } from '../callback-secret-repository';
import { first, type PgExecutor, type PgOrm } from './pg-executor';
import { callbackSecrets } from './pg-schema-events';

/** {@link CallbackSecretRepository} on PostgreSQL; the secret goes through the field cipher. */
export class PgCallbackSecretRepository implements CallbackSecretRepository {
  /** Creates the repository over an executor. */
  constructor(
    private readonly run: PgExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  find(customerId: string): Promise<CallbackSecretRecord | undefined> {
    return this.run(async (db) => {
      const row = await this.#row(db, customerId);
      return row && { secret: this.cipher.decrypt(row.secret), createdAt: row.createdAt };
    });
  }

  findOrCreate(customerId: string, record: CallbackSecretRecord): Promise<CallbackSecretRecord> {
    return this.run(async (db) => {
      await db
        .insert(callbackSecrets)
        .values({
          customerId,
          secret: this.cipher.encrypt(record.secret),
          createdAt: record.createdAt,
        })
        .onConflictDoNothing();
      const row = await this.#row(db, customerId);
      if (!row) throw new Error(`the callback secret of ${customerId} could not be stored`);
      return { secret: this.cipher.decrypt(row.secret), createdAt: row.createdAt };
    });
  }

  replace(customerId: string, record: CallbackSecretRecord): Promise<void> {
    const secret = this.cipher.encrypt(record.secret);
    return this.run(async (db) => {
      await db
        .insert(callbackSecrets)
        .values({ customerId, secret, createdAt: record.createdAt })
        .onConflictDoUpdate({
          target: callbackSecrets.customerId,
          set: { secret, createdAt: record.createdAt },
        });
    });
  }

  #row(db: PgOrm, customerId: string) {
    return db
      .select()
      .from(callbackSecrets)
      .where(eq(callbackSecrets.customerId, customerId))
      .limit(1)
      .then(first);
  }
}
