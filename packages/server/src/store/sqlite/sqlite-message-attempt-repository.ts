import { eq, sql } from 'drizzle-orm';
import type {
  EarlyStatusUpdate,
  MessageAttemptRecord,
  MessageAttemptRepository,
  StatusTarget,
} from '../message-attempt-repository';
import type { SqliteExecutor } from './executor';
import { insertRow } from './prepared-insert';
import { preparedQuery } from './prepared-query';
import { updateRows } from './prepared-update';
import { messageAttempts } from './schema-messages';
import { SqliteMessagePartRepository } from './sqlite-message-part-repository';
import { SqliteMessageRepository } from './sqlite-message-repository';

const attemptById = preparedQuery((db) =>
  db
    .select()
    .from(messageAttempts)
    .where(eq(messageAttempts.attemptId, sql.placeholder('attemptId')))
    .prepare(),
);

const recordAccepted = preparedQuery((db) =>
  db
    .update(messageAttempts)
    .set({ externalId: sql`${sql.placeholder('externalId')}` })
    .where(eq(messageAttempts.attemptId, sql.placeholder('attemptId')))
    .returning({ earlyUpdates: messageAttempts.earlyUpdates })
    .prepare(),
);

/** {@link MessageAttemptRepository} on SQLite. */
export class SqliteMessageAttemptRepository implements MessageAttemptRepository {
  /** The reads of a status target beside the attempt's (in-process on SQLite: no round trips). */
  readonly #parts: SqliteMessagePartRepository;
  readonly #messages: SqliteMessageRepository;

  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {
    this.#parts = new SqliteMessagePartRepository(run);
    this.#messages = new SqliteMessageRepository(run);
  }

  insert(attempt: Omit<MessageAttemptRecord, 'earlyUpdates'>): Promise<void> {
    return this.run((db) => {
      insertRow(db, messageAttempts, attempt, 'nothing');
    });
  }

  findById(attemptId: string): Promise<MessageAttemptRecord | undefined> {
    return this.run((db) => attemptById(db).get({ attemptId }));
  }

  async findStatusTarget(
    attemptId: string,
    instanceId: string,
    externalId: string,
  ): Promise<StatusTarget | undefined> {
    const attempt = await this.findById(attemptId);
    if (!attempt) return undefined;
    const part = await this.#parts.findByExternalId(instanceId, externalId);
    const message = await this.#messages.findByIdInAnyCustomer(attempt.messageId);
    return { part, attempt, message };
  }

  recordAccepted(attemptId: string, externalId: string): Promise<EarlyStatusUpdate[]> {
    return this.run((db) => recordAccepted(db).get({ attemptId, externalId })?.earlyUpdates ?? []);
  }

  setEarlyUpdates(attemptId: string, updates: EarlyStatusUpdate[] | null): Promise<void> {
    return this.run((db) => {
      updateRows(db, messageAttempts, { earlyUpdates: updates }, { attemptId });
    });
  }

  lock(_attemptId: string): Promise<void> {
    // The writer runs one transaction at a time: the next one sees this one's writes.
    return Promise.resolve();
  }
}
