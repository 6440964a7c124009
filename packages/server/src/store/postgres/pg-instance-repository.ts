import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type {
  InstanceChanges,
  InstanceHealth,
  InstanceRecord,
  InstanceRepository,
} from '../instance-repository';
import { changed, first, type PgExecutor } from './pg-executor';
import { preparedFirstBy } from './pg-prepared-query';
import { instances } from './pg-schema';

const instanceById = preparedFirstBy(instances, { id: instances.id });

type InstanceRow = typeof instances.$inferSelect;

/** {@link InstanceRepository} on PostgreSQL; configs and ingress tokens are stored encrypted. */
export class PgInstanceRepository implements InstanceRepository {
  /** Creates the repository over an executor; `cipher` seals the secrets. */
  constructor(
    private readonly run: PgExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  insert(instance: InstanceRecord): Promise<void> {
    const row = this.#rowOf(instance);
    return this.run(async (db) => {
      await db.insert(instances).values(row);
    });
  }

  findById(id: string): Promise<InstanceRecord | undefined> {
    return this.run(async (db) => {
      const row = await instanceById(db, { id });
      return row && this.#recordOf(row);
    });
  }

  findByName(name: string): Promise<InstanceRecord | undefined> {
    return this.run(async (db) => {
      const row = await db
        .select()
        .from(instances)
        .where(and(eq(instances.name, name), isNull(instances.deletedAt)))
        .limit(1)
        .then(first);
      return row && this.#recordOf(row);
    });
  }

  list(): Promise<InstanceRecord[]> {
    return this.run(async (db) =>
      (
        await db
          .select()
          .from(instances)
          .where(isNull(instances.deletedAt))
          .orderBy(asc(instances.createdAt), asc(instances.id))
      ).map((row) => this.#recordOf(row)),
    );
  }

  update(id: string, changes: InstanceChanges): Promise<boolean> {
    const { config, ingressToken, ...rest } = changes;
    const values = {
      ...rest,
      ...(config === undefined ? {} : { config: this.cipher.encrypt(JSON.stringify(config)) }),
      ...(ingressToken === undefined ? {} : { ingressToken: this.cipher.encrypt(ingressToken) }),
    };
    return this.run(async (db) => {
      const result = await db.update(instances).set(values).where(eq(instances.id, id));
      return changed(result) > 0;
    });
  }

  updateHealth(id: string, health: InstanceHealth): Promise<void> {
    return this.run(async (db) => {
      await db
        .update(instances)
        .set({
          healthStatus: health.status,
          healthWarnings: health.warnings,
          healthCheckedAt: health.checkedAt,
        })
        .where(eq(instances.id, id));
    });
  }

  count(): Promise<number> {
    return this.run(async (db) => {
      const [row] = await db
        .select({ n: count() })
        .from(instances)
        .where(isNull(instances.deletedAt));
      return row?.n ?? 0;
    });
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
      ingressToken: this.cipher.decryptNullable(row.ingressToken) ?? '',
      updatedAt: row.updatedAt ?? row.createdAt,
    };
  }
}
