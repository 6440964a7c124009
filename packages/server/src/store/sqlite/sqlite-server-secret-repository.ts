import { eq } from 'drizzle-orm';
import type { ServerSecretRepository } from '../server-secret-repository';
import type { SqliteExecutor } from './executor';
import { serverSecrets } from './schema-chats';

/** {@link ServerSecretRepository} on SQLite. */
export class SqliteServerSecretRepository implements ServerSecretRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  get(name: string): Promise<string | undefined> {
    return this.run(
      (db) => db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).get()?.value,
    );
  }

  getOrCreate(name: string, value: string, at: Date): Promise<string> {
    return this.run((db) => {
      db.insert(serverSecrets).values({ name, value, createdAt: at }).onConflictDoNothing().run();
      const stored = db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).get();
      if (!stored) throw new Error(`server secret ${name} could not be stored`);
      return stored.value;
    });
  }
}
