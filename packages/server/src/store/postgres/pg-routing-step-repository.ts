import { and, asc, eq } from 'drizzle-orm';
import type { RoutingStepRecord, RoutingStepRepository } from '../routing-step-repository';
import type { PgExecutor } from './pg-executor';
import { routingSteps } from './pg-schema-routing';

/** {@link RoutingStepRepository} on PostgreSQL. */
export class PgRoutingStepRepository implements RoutingStepRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  append(steps: readonly RoutingStepRecord[]): Promise<void> {
    return this.run(async (db) => {
      if (steps.length > 0) await db.insert(routingSteps).values([...steps]);
    });
  }

  listByMessage(customerId: string, messageId: string): Promise<RoutingStepRecord[]> {
    return this.run(async (db) => {
      const rows = await db
        .select()
        .from(routingSteps)
        .where(and(eq(routingSteps.messageId, messageId), eq(routingSteps.customerId, customerId)))
        .orderBy(asc(routingSteps.id));
      return rows.map(({ id: _id, ...step }) => step);
    });
  }
}
