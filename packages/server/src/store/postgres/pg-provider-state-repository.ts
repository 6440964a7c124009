import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type { ProviderStateRepository } from '../provider-state-repository';
import type { PgExecutor } from './pg-executor';
import { providerState } from './pg-schema-provider-state';

/** Keys that start with `prefix`: case-sensitive, and without LIKE's wildcards to escape. */
function keyStartsWith(prefix: string): SQL {
  return sql`starts_with(${providerState.key}, ${prefix})`;
}

/** Keys read per statement: well under PostgreSQL's limit of bound parameters. */
const KEYS_PER_READ = 1000;

/** {@link ProviderStateRepository} on PostgreSQL. */
export class PgProviderStateRepository implements ProviderStateRepository {
  /** Creates the repository over an executor; `atomically` runs work as one transaction or savepoint. */
  constructor(
    private readonly run: PgExecutor,
    private readonly cipher: FieldCipher,
    private readonly atomically: PgExecutor,
  ) {}

  get(instanceId: string, key: string): Promise<string | undefined> {
    return this.run(async (db) => {
      const [row] = await db
        .select({ value: providerState.value })
        .from(providerState)
        .where(and(eq(providerState.instanceId, instanceId), eq(providerState.key, key)))
        .limit(1);
      return row === undefined ? undefined : this.cipher.decrypt(row.value);
    });
  }

  set(instanceId: string, key: string, value: string): Promise<void> {
    const sealed = this.cipher.encrypt(value);
    return this.run(async (db) => {
      await db
        .insert(providerState)
        .values({ instanceId, key, value: sealed })
        .onConflictDoUpdate({
          target: [providerState.instanceId, providerState.key],
          set: { value: sealed },
        });
    });
  }

  getMany(instanceId: string, keys: readonly string[]): Promise<Map<string, string>> {
    return this.run(async (db) => {
      const found = new Map<string, string>();
      for (let start = 0; start < keys.length; start += KEYS_PER_READ) {
        const rows = await db
          .select({ key: providerState.key, value: providerState.value })
          .from(providerState)
          .where(
            and(
              eq(providerState.instanceId, instanceId),
              inArray(providerState.key, keys.slice(start, start + KEYS_PER_READ)),
            ),
          );
        for (const row of rows) found.set(row.key, this.cipher.decrypt(row.value));
      }
      return found;
    });
  }

  setMany(instanceId: string, changes: ReadonlyMap<string, string | null>): Promise<void> {
    const sealed = [...changes].map(
      ([key, value]) => [key, value === null ? null : this.cipher.encrypt(value)] as const,
    );
    // A transaction of its own outside one, a savepoint inside one: never half-written.
    return this.atomically(async (db) => {
      const removed = sealed.filter(([, value]) => value === null).map(([key]) => key);
      if (removed.length > 0) {
        await db
          .delete(providerState)
          .where(
            and(eq(providerState.instanceId, instanceId), inArray(providerState.key, removed)),
          );
      }
      const written = sealed.flatMap(([key, value]) =>
        value === null ? [] : [{ instanceId, key, value }],
      );
      if (written.length > 0) {
        await db
          .insert(providerState)
          .values(written)
          .onConflictDoUpdate({
            target: [providerState.instanceId, providerState.key],
            set: { value: sql`excluded.value` },
          });
      }
    });
  }

  delete(instanceId: string, key: string): Promise<void> {
    return this.run(async (db) => {
      await db
        .delete(providerState)
        .where(and(eq(providerState.instanceId, instanceId), eq(providerState.key, key)));
    });
  }

  deletePrefix(instanceId: string, prefix: string): Promise<void> {
    return this.run(async (db) => {
      await db
        .delete(providerState)
        .where(and(eq(providerState.instanceId, instanceId), keyStartsWith(prefix)));
    });
  }

  keys(instanceId: string, prefix: string): Promise<string[]> {
    return this.run(async (db) =>
      (
        await db
          .select({ key: providerState.key })
          .from(providerState)
          .where(and(eq(providerState.instanceId, instanceId), keyStartsWith(prefix)))
          .orderBy(providerState.key)
      ).map((row) => row.key),
    );
  }
}
