import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type {
  InstanceChanges,
  InstanceHealth,
  InstanceRecord,
  InstanceRepository,
} from '../instance-repository';
import type { SqliteExecutor } from './executor';
import { preparedQuery } from './prepared-query';
import { instances } from './schema';

type InstanceRow = typeof instances.$inferSelect;

const instanceById = preparedQuery((db) =>
  db
    .select()
    .from(instances)
    .where(eq(instances.id, sql.placeholder('id')))
    .prepare(),
);

/** {@link InstanceRepository} on SQLite; configs and ingress tokens are stored encrypted. */
export class SqliteInstanceRepository implements InstanceRepository {
  /** Creates the repository over an executor; `cipher` seals the secrets. */
  constructor(
    private readonly run: SqliteExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  insert(instance: InstanceRecord): Promise<void> {
    return this.run((db) => {
      db.insert(instances).values(this.#rowOf(instance)).run();
    });
  }

  findById(id: string): Promise<InstanceRecord | undefined> {
    return this.run((db) => {
      const row = instanceById(db).get({ id });
      return row && this.#recordOf(row);
    });
  }

  findByName(name: string): Promise<InstanceRecord | undefined> {
    return this.run((db) => {
      const row = db
        .select()
        .from(instances)
        .where(and(eq(instances.name, name), isNull(instances.deletedAt)))
        .get();
      return row && this.#recordOf(row);
    });
  }

  list(): Promise<InstanceRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(instances)
        .where(isNull(instances.deletedAt))
        .orderBy(asc(instances.createdAt), asc(instances.id))
        .all()
        .map((row) => this.#recordOf(row)),
    );
  }

  update(id: string, changes: InstanceChanges): Promise<boolean> {
    return this.run((db) => {
      const { config, ingressToken, ...rest } = changes;
      const result = db
        .update(instances)
        .set({
          ...rest,
          ...(config === undefined ? {} : { config: this.cipher.encrypt(JSON.stringify(config)) }),
          ...(ingressToken === undefined
            ? {}
            : { ingressToken: this.cipher.encrypt(ingressToken) }),
        })
        .where(eq(instances.id, id))
        .run();
      return result.changes > 0;
    });
  }

  updateHealth(id: string, health: InstanceHealth): Promise<void> {
    return this.run((db) => {
      db.update(instances)
        .set({
          healthStatus: health.status,
          healthWarnings: health.warnings,
          healthCheckedAt: health.checkedAt,
        })
        .where(eq(instances.id, id))
        .run();
    });
  }

  count(): Promise<number> {
    return this.run(
      (db) =>
        db.select({ n: count() }).from(instances).where(isNull(instances.deletedAt)).get()?.n ?? 0,
    );
  }

  #rowOf(record: InstanceRecord): typeof instances.$inferInsert {
    return {
      ...record,
      config: this.cipher.encrypt(JSON.stringify(record.config)),
      ingressToken: this.cipher.encrypt(record.ingressToken),
    };
  }

  #recordOf(row: InstanceRow): InstanceRecord {
    return {
      ...row,
      config: JSON.parse(this.cipher.decrypt(row.config)) as Record<string, unknown>,
      // Rows from before ingress tokens get one when the store opens (see `sealLegacySecrets`).
      ingressToken: this.cipher.decryptNullable(row.ingressToken) ?? '',
      updatedAt: row.updatedAt ?? row.createdAt,
    };
  }
}
