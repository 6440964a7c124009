import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type { ProviderStateRepository } from '../provider-state-repository';
import type { SqliteExecutor } from './executor';
import { providerState } from './schema-provider-state';

/** Keys that start with `prefix`: case-sensitive, and without LIKE's wildcards to escape. */
function keyStartsWith(prefix: string): SQL {
  return sql`instr(${providerState.key}, ${prefix}) = 1`;
}

/** Keys read per statement: well under SQLite's limit of bound parameters. */
const KEYS_PER_READ = 500;

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

  getMany(instanceId: string, keys: readonly string[]): Promise<Map<string, string>> {
    return this.run((db) => {
      const found = new Map<string, string>();
      for (let start = 0; start < keys.length; start += KEYS_PER_READ) {
        const rows = db
          .select({ key: providerState.key, value: providerState.value })
          .from(providerState)
          .where(
            and(
              eq(providerState.instanceId, instanceId),
              inArray(providerState.key, keys.slice(start, start + KEYS_PER_READ)),
            ),
          )
          .all();
        for (const row of rows) found.set(row.key, this.cipher.decrypt(row.value));
      }
      return found;
    });
  }

  setMany(instanceId: string, changes: ReadonlyMap<string, string | null>): Promise<void> {
    const sealed = [...changes].map(
      ([key, value]) => [key, value === null ? null : this.cipher.encrypt(value)] as const,
    );
    return this.run((db) => {
      // A savepoint: its own transaction outside one, nested inside an open one. A batch is
      // never half-written either way.
      db.run(sql`SAVEPOINT provider_state_batch`);
      try {
        for (const [key, value] of sealed) {
          if (value === null) {
            db.delete(providerState)
              .where(and(eq(providerState.instanceId, instanceId), eq(providerState.key, key)))
              .run();
          } else {
            db.insert(providerState)
              .values({ instanceId, key, value })
              .onConflictDoUpdate({
                target: [providerState.instanceId, providerState.key],
                set: { value },
              })
              .run();
          }
        }
      } catch (error) {
        db.run(sql`ROLLBACK TO provider_state_batch`);
        db.run(sql`RELEASE provider_state_batch`);
        throw error;
      }
      db.run(sql`RELEASE provider_state_batch`);
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
