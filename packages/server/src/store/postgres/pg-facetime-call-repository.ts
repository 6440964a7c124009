import { and, eq } from 'drizzle-orm';
import type { FaceTimeCallRecord, FaceTimeCallRepository } from '../facetime-call-repository';
import { first, type PgExecutor } from './pg-executor';
import { faceTimeCalls } from './pg-schema-chats';

/** {@link FaceTimeCallRepository} on PostgreSQL. */
export class PgFaceTimeCallRepository implements FaceTimeCallRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  save(call: FaceTimeCallRecord): Promise<void> {
    return this.run(async (db) => {
      await db
        .insert(faceTimeCalls)
        .values(call)
        .onConflictDoUpdate({
          target: [faceTimeCalls.customerId, faceTimeCalls.callUuid],
          set: { status: call.status, updatedAt: call.updatedAt },
        });
    });
  }

  find(customerId: string, callUuid: string): Promise<FaceTimeCallRecord | undefined> {
    return this.run(async (db) => {
      const row = await db
        .select()
        .from(faceTimeCalls)
        .where(and(eq(faceTimeCalls.customerId, customerId), eq(faceTimeCalls.callUuid, callUuid)))
        .limit(1)
        .then(first);
      return row === undefined
        ? undefined
        : { ...row, status: row.status as FaceTimeCallRecord['status'] };
    });
  }
}
