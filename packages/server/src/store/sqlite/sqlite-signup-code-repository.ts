import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { SignupCodeRecord, SignupCodeRepository } from '../signup-code-repository';
import type { SqliteExecutor } from './executor';
import { signupCodes } from './schema-chats';

/** {@link SignupCodeRepository} on SQLite. */
export class SqliteSignupCodeRepository implements SignupCodeRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(code: SignupCodeRecord): Promise<void> {
    return this.run((db) => {
      db.insert(signupCodes).values(code).onConflictDoNothing().run();
    });
  }

  listSince(
    customerId: string,
    receivingAddress: string,
    since: Date,
  ): Promise<SignupCodeRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(signupCodes)
        .where(
          and(
            eq(signupCodes.customerId, customerId),
            eq(signupCodes.receivingAddress, receivingAddress),
            gte(signupCodes.receivedAt, since),
          ),
        )
        .orderBy(desc(signupCodes.receivedAt), desc(signupCodes.messageId))
        .all(),
    );
  }

  deleteBefore(before: Date): Promise<string[]> {
    return this.run((db) =>
      db
        .delete(signupCodes)
        .where(lt(signupCodes.receivedAt, before))
        .returning({ messageId: signupCodes.messageId })
        .all()
        .map((row) => row.messageId),
    );
  }
}
