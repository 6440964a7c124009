import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type { ProviderStateRepository } from '../provider-state-repository';
import type { SqliteExecutor } from './executor';
import { providerState } from './schema-provider-state';

/** Keys that start with `prefix`: case-sensitive, and without LIKE's wildcards to escape. */
function keyStartsWith(prefix: string): SQL {
  return sql`instr(${providerState.key}, ${prefix}) = 1`;
}

/** {@link ProviderStateRepository} on SQLite. */
export class SqliteProviderStateRepository implements ProviderStateRepository {
  /** Creates the repository over an executor. */
  constructor(
    private readonly run: SqliteExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  get(instanceId: string, key: string): Promise<string | undefined> {
    return this.run((db) => {
      const value = db
        .select({ value: providerState.value })
        .from(providerState)
        .where(and(eq(providerState.instanceId, instanceId), eq(providerState.key, key)))
        .get()?.value;
      return value === undefined ? undefined : this.cipher.decrypt(value);
    });
  }

  set(instanceId: string, key: string, value: string): Promise<void> {
    const sealed = this.cipher.encrypt(value);
    return this.run((db) => {
      db.insert(providerState)
        .values({ instanceId, key, value: sealed })
        .onConflictDoUpdate({
          target: [providerState.instanceId, providerState.key],
          set: { value: sealed },
        })
        .run();
    });
  }

  delete(instanceId: string, key: string): Promise<void> {
    return this.run((db) => {
      db.delete(providerState)
        .where(and(eq(providerState.instanceId, instanceId), eq(providerState.key, key)))
        .run();
    });
  }

  deletePrefix(instanceId: string, prefix: string): Promise<void> {
    return this.run((db) => {
      db.delete(providerState)
        .where(and(eq(providerState.instanceId, instanceId), keyStartsWith(prefix)))
        .run();
    });
  }

  keys(instanceId: string, prefix: string): Promise<string[]> {
    return this.run((db) =>
      db
        .select({ key: providerState.key })
        .from(providerState)
        .where(and(eq(providerState.instanceId, instanceId), keyStartsWith(prefix)))
        .all()
        .map((row) => row.key),
    );
  }
}
