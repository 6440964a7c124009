import { and, eq } from 'drizzle-orm';
import type { FaceTimeCallRecord, FaceTimeCallRepository } from '../facetime-call-repository';
import type { SqliteExecutor } from './executor';
import { faceTimeCalls } from './schema-chats';

/** {@link FaceTimeCallRepository} on SQLite. */
export class SqliteFaceTimeCallRepository implements FaceTimeCallRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  save(call: FaceTimeCallRecord): Promise<void> {
    return this.run((db) => {
      db.insert(faceTimeCalls)
        .values(call)
        .onConflictDoUpdate({
          target: [faceTimeCalls.customerId, faceTimeCalls.callUuid],
          set: { status: call.status, updatedAt: call.updatedAt },
        })
        .run();
    });
  }

  find(customerId: string, callUuid: string): Promise<FaceTimeCallRecord | undefined> {
    return this.run((db) => {
      const row = db
        .select()
        .from(faceTimeCalls)
        .where(and(eq(faceTimeCalls.customerId, customerId), eq(faceTimeCalls.callUuid, callUuid)))
        .get();
      return row === undefined
        ? undefined
        : { ...row, status: row.status as FaceTimeCallRecord['status'] };
    });
  }
}
