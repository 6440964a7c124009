import { eq } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type { ServerSecretRepository } from '../server-secret-repository';
import { first, type PgExecutor } from './pg-executor';
import { serverSecrets } from './pg-schema-chats';

/** {@link ServerSecretRepository} on PostgreSQL. */
export class PgServerSecretRepository implements ServerSecretRepository {
  /** Creates the repository over an executor. */
  constructor(
    private readonly run: PgExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  get(name: string): Promise<string | undefined> {
    return this.run(async (db) => {
      const row = await db
        .select()
        .from(serverSecrets)
        .where(eq(serverSecrets.name, name))
        .limit(1)
        .then(first);
      return row === undefined ? undefined : this.cipher.decrypt(row.value);
    });
  }

  getOrCreate(name: string, value: string, at: Date): Promise<string> {
    return this.run(async (db) => {
      await db
        .insert(serverSecrets)
        .values({ name, value: this.cipher.encrypt(value), createdAt: at })
        .onConflictDoNothing();
      const stored = await db
        .select()
        .from(serverSecrets)
        .where(eq(serverSecrets.name, name))
        .limit(1)
        .then(first);
      if (!stored) throw new Error(`server secret ${name} could not be stored`);
      return this.cipher.decrypt(stored.value);
    });
  }
}
