import { asc, count, eq, sql } from 'drizzle-orm';
import type { InstanceHealth, InstanceRecord, InstanceRepository } from '../instance-repository';
import type { SqliteExecutor } from './executor';
import { preparedQuery } from './prepared-query';
import { instances } from './schema';

const instanceById = preparedQuery((db) =>
  db
    .select()
    .from(instances)
    .where(eq(instances.id, sql.placeholder('id')))
    .prepare(),
);

/** {@link InstanceRepository} on SQLite. */
export class SqliteInstanceRepository implements InstanceRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(instance: InstanceRecord): Promise<void> {
    return this.run((db) => {
      db.insert(instances).values(instance).run();
    });
  }

  findById(id: string): Promise<InstanceRecord | undefined> {
    return this.run((db) => instanceById(db).get({ id }));
  }

  findByName(name: string): Promise<InstanceRecord | undefined> {
    return this.run((db) => db.select().from(instances).where(eq(instances.name, name)).get());
  }

  list(): Promise<InstanceRecord[]> {
    return this.run((db) =>
      db.select().from(instances).orderBy(asc(instances.createdAt), asc(instances.id)).all(),
    );
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
    return this.run((db) => db.select({ n: count() }).from(instances).get()?.n ?? 0);
  }
}
