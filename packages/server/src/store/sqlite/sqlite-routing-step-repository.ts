import { and, asc, eq } from 'drizzle-orm';
import type { RoutingStepRecord, RoutingStepRepository } from '../routing-step-repository';
import type { SqliteExecutor } from './executor';
import { routingSteps } from './schema-routing';

/** {@link RoutingStepRepository} on SQLite. */
export class SqliteRoutingStepRepository implements RoutingStepRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  append(steps: readonly RoutingStepRecord[]): Promise<void> {
    return this.run((db) => {
      if (steps.length > 0)
        db.insert(routingSteps)
          .values([...steps])
          .run();
    });
  }

  listByMessage(customerId: string, messageId: string): Promise<RoutingStepRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(routingSteps)
        .where(and(eq(routingSteps.messageId, messageId), eq(routingSteps.customerId, customerId)))
        .orderBy(asc(routingSteps.id))
        .all()
        .map(({ id: _id, ...step }) => step),
    );
  }
}
