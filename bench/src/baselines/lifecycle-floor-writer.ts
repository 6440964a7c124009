/**
 * The floor's SQLite writer on a thread of its own (`BENCH_FLOOR_WRITER=thread`): a diagnostic
 * that measures what moving every write and commit off the event loop buys on this data model.
 * The floor's main thread sends each group of writes as data; this thread runs them in one
 * transaction on its own connection and answers once it has committed (groups commit in the order
 * they were sent, so the answer needs no name).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { insertStatement } from './sqlite-ceiling';

type Row = Record<string, unknown>;

/** One write of the floor, as data. */
export type FloorWrite =
  | { op: 'insert'; table: 'messages' | 'events' | 'webhook_deliveries'; row: Row }
  | { op: 'updateMessage'; args: unknown[] }
  | { op: 'completeDelivery'; args: unknown[] };

/** The SQL of the floor's two updates, shared with its writes on the main thread. */
export const FLOOR_UPDATES = {
  updateMessage:
    'update messages set status = ?, timeline = ?, external_id = coalesce(?, external_id), updated_at = ? where id = ?',
  completeDelivery:
    'update webhook_deliveries set status = ?, status_code = ?, duration_ms = ?, attempted_at = ? where id = ?',
} as const;

if (parentPort && workerData?.floorWriter === true) {
  const port = parentPort;
  const db = new Database(String(workerData.databasePath));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  const inserts = new Map<string, (row: Row) => unknown>();
  const updateMessage = db.prepare(FLOOR_UPDATES.updateMessage);
  const completeDelivery = db.prepare(FLOOR_UPDATES.completeDelivery);
  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  port.on('message', (writes: FloorWrite[]) => {
    begin.run();
    for (const write of writes) {
      if (write.op === 'insert') {
        let insert = inserts.get(write.table);
        if (!insert) {
          // The rows of a table are all cloned from one template: the first names the columns.
          insert = insertStatement(db, write.table, Object.keys(write.row));
          inserts.set(write.table, insert);
        }
        insert(write.row);
      } else if (write.op === 'updateMessage') {
        updateMessage.run(...write.args);
      } else {
        completeDelivery.run(...write.args);
      }
    }
    commit.run();
    port.postMessage(null);
  });
}
