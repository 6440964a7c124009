import { eq } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type { CallbackSecretRecord, CallbackSecretRepository } from '../callback-secret-repository';
import type { SqliteExecutor } from './executor';
import { callbackSecrets } from './schema-events';

/** {@link CallbackSecretRepository} on SQLite; the secret goes through the field cipher. */
export class SqliteCallbackSecretRepository implements CallbackSecretRepository {
  /** Creates the repository over an executor. */
  constructor(
    private readonly run: SqliteExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  find(customerId: string): Promise<CallbackSecretRecord | undefined> {
    return this.run((db) => {
      const row = db
        .select()
        .from(callbackSecrets)
        .where(eq(callbackSecrets.customerId, customerId))
        .get();
      return row && { secret: this.cipher.decrypt(row.secret), createdAt: row.createdAt };
    });
  }

  findOrCreate(customerId: string, record: CallbackSecretRecord): Promise<CallbackSecretRecord> {
    return this.run((db) => {
      db.insert(callbackSecrets)
        .values({
          customerId,
          secret: this.cipher.encrypt(record.secret),
          createdAt: record.createdAt,
        })
        .onConflictDoNothing()
        .run();
      const row = db
        .select()
        .from(callbackSecrets)
        .where(eq(callbackSecrets.customerId, customerId))
        .get();
      if (!row) throw new Error(`the callback secret of ${customerId} could not be stored`);
      return { secret: this.cipher.decrypt(row.secret), createdAt: row.createdAt };
    });
  }

  replace(customerId: string, record: CallbackSecretRecord): Promise<void> {
    return this.run((db) => {
      db.insert(callbackSecrets)
        .values({
          customerId,
          secret: this.cipher.encrypt(record.secret),
          createdAt: record.createdAt,
        })
        .onConflictDoUpdate({
          target: callbackSecrets.customerId,
          set: { secret: this.cipher.encrypt(record.secret), createdAt: record.createdAt },
        })
        .run();
    });
  }
}
