import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { SignupCodeRecord, SignupCodeRepository } from '../signup-code-repository';
import type { PgExecutor } from './pg-executor';
import { signupCodes } from './pg-schema-chats';

/** {@link SignupCodeRepository} on PostgreSQL. */
export class PgSignupCodeRepository implements SignupCodeRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(code: SignupCodeRecord): Promise<void> {
    return this.run(async (db) => {
      await db.insert(signupCodes).values(code).onConflictDoNothing();
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
        .orderBy(desc(signupCodes.receivedAt), desc(signupCodes.messageId)),
    );
  }

  deleteBefore(before: Date): Promise<string[]> {
    return this.run(async (db) =>
      (
        await db
          .delete(signupCodes)
          .where(lt(signupCodes.receivedAt, before))
          .returning({ messageId: signupCodes.messageId })
      ).map((row) => row.messageId),
    );
  }
}
