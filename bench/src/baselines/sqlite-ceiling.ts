import { randomUUID } from 'node:crypto';
import { copyFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';

type Row = Record<string, unknown>;

/** What SQLite alone sustains for the writes of an accepted send, on this machine. */
export interface SqliteCeiling {
  /** Sends/s with one transaction per send (what the server does today). */
  perSendTransaction: number;
  /** Sends/s with the sends of a batch committed in one transaction (group commit). */
  groupCommit: number;
  /** Sends per group in the group-commit measurement. */
  groupSize: number;
}

/** A prepared insert of `columns` into `table`, run with a row's values by column name (missing: null). */
export function insertStatement(db: Database.Database, table: string, columns: readonly string[]) {
  const statement = db.prepare(
    `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
  );
  return (row: Row) => statement.run(...columns.map((column) => row[column] ?? null));
}

/**
 * Measures the ceiling SQLite puts on send acceptance, on a copy of a database the server wrote:
 * the writes of one accepted send (its message row and its `message.queued` event, cloned from
 * real ones, plus their indexes) with the server's pragmas (WAL, synchronous NORMAL), through
 * prepared statements, once with a transaction per send and once grouped. No HTTP, no ORM: the
 * most any server on this SQLite file could accept.
 */
export function measureSqliteCeiling(
  databasePath: string,
  sends: number,
  groupSize = 64,
): SqliteCeiling {
  const copy = `${databasePath}.ceiling`;
  copyFileSync(databasePath, copy);
  const db = new Database(copy);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const message = db.prepare('select * from messages limit 1').get() as Row | undefined;
    const event = db.prepare("select * from events where type = 'message.queued' limit 1").get() as
      | Row
      | undefined;
    if (!message || !event) throw new Error('no message or message.queued event to clone');
    const insertMessage = insertStatement(db, 'messages', Object.keys(message));
    const insertEvent = insertStatement(db, 'events', Object.keys(event));
    let sequence = 0;
    const writeOneSend = () => {
      sequence += 1;
      const id = `msg_${uuidv7()}`;
      insertMessage({ ...message, id, idempotency_key: `ceiling-${sequence}`, external_id: null });
      insertEvent({
        ...event,
        id: `evt_${uuidv7()}`,
        message_id: id,
        correlation_id: `cor_${randomUUID()}`,
      });
    };
    const begin = db.prepare('begin immediate');
    const commit = db.prepare('commit');

    let started = performance.now();
    for (let index = 0; index < sends; index += 1) {
      begin.run();
      writeOneSend();
      commit.run();
    }
    const perSendTransaction = (sends * 1000) / (performance.now() - started);

    started = performance.now();
    for (let index = 0; index < sends; index += groupSize) {
      begin.run();
      for (let inGroup = 0; inGroup < groupSize && index + inGroup < sends; inGroup += 1)
        writeOneSend();
      commit.run();
    }
    const groupCommit = (sends * 1000) / (performance.now() - started);
    return { perSendTransaction, groupCommit, groupSize };
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true });
  }
}
