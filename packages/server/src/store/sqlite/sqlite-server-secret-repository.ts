import { eq } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type { ServerSecretRepository } from '../server-secret-repository';
import type { SqliteExecutor } from './executor';
import { serverSecrets } from './schema-chats';

/** {@link ServerSecretRepository} on SQLite. */
export class SqliteServerSecretRepository implements ServerSecretRepository {
  /** Creates the repository over an executor. */
  constructor(
    private readonly run: SqliteExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  get(name: string): Promise<string | undefined> {
    return this.run((db) => {
      const value = db
        .select()
        .from(serverSecrets)
        .where(eq(serverSecrets.name, name))
        .get()?.value;
      return value === undefined ? undefined : this.cipher.decrypt(value);
    });
  }

  getOrCreate(name: string, value: string, at: Date): Promise<string> {
    return this.run((db) => {
      db.insert(serverSecrets)
        .values({ name, value: this.cipher.encrypt(value), createdAt: at })
        .onConflictDoNothing()
        .run();
      const stored = db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).get();
      if (!stored) throw new Error(`server secret ${name} could not be stored`);
      return this.cipher.decrypt(stored.value);
    });
  }
}
