import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import {
  BUSY_RECIPIENT,
  BUSY_RECIPIENT_MESSAGES,
  MARKER_RECIPIENT,
  type RecipientBehaviour,
  recipientCount,
  recipientNumber,
} from './phone-numbers';

type Row = Record<string, unknown>;

/** A large database made from a template, and what the growth queries need from it. */
export interface ClonedDatabase {
  path: string;
  /** Messages in the database. */
  messages: number;
  /** Ids spread evenly over the table, for `GET /v1/messages/:id`. */
  sampleIds: string[];
  /** The recipient with 100 messages in every database, for the `to` filter. */
  busyRecipient: string;
  /** The recipient of the two marker messages in the middle of the table. */
  markerRecipient: string;
  /** How long writing the rows took, seconds. */
  seedSec: number;
  /** Size of the database file, bytes. */
  fileBytes: number;
}

/**
 * The mix of the cloned messages, by simulator behaviour, in twentieths: 70 % delivered over
 * iMessage, 15 % read, 10 % delivered over SMS after a fallback, 5 % failed.
 */
const MIX: ReadonlyArray<[RecipientBehaviour, number]> = [
  ['imessage-delivered', 14],
  ['imessage-read', 3],
  ['sms-delivered', 2],
  ['failed', 1],
];

function behaviourOf(index: number): RecipientBehaviour {
  let slot = index % 20;
  for (const [behaviour, share] of MIX) {
    if (slot < share) return behaviour;
    slot -= share;
  }
  return 'imessage-delivered';
}

/** Which behaviour a template message was sent with: read back from what the server stored. */
function templateBehaviour(row: Row): RecipientBehaviour {
  if (row.status === 'read') return 'imessage-read';
  if (row.status === 'failed') return 'failed';
  if (row.channel === 'sms') return 'sms-delivered';
  return 'imessage-delivered';
}

/**
 * Returns a function that shifts every `"at":<epoch ms>` of a stored timeline (a JSON array of
 * entries) by a delta: the template's text split once around its numbers, then joined per row.
 */
function timelineShifter(timeline: unknown): (delta: number) => unknown {
  if (typeof timeline !== 'string') return () => timeline;
  const parts = timeline.split(/("at":)(\d+)/);
  return (delta) =>
    parts.map((part, index) => (index % 3 === 2 ? String(Number(part) + delta) : part)).join('');
}

/** A statement inserting every column of a table, in `columns` order. */
function inserter(db: Database.Database, table: string, columns: readonly string[]) {
  const statement = db.prepare(
    `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
  );
  return (row: Row) => statement.run(...columns.map((column) => row[column] ?? null));
}

/**
 * Copies the template database and grows its messages table to `messages` rows (plus one
 * delivery attempt per message), cloning the real rows the server wrote: every column as the
 * server stored it, with a new time-ordered id, a timestamp one second after the previous
 * message's (the timeline shifted along), a recipient of the right simulator behaviour, and fresh
 * idempotency key, external id and correlation id. Written in one transaction with better-sqlite3,
 * in id order as the server would have inserted them. The template's own rows stay in place.
 */
export function cloneMessages(
  templatePath: string,
  targetPath: string,
  messages: number,
): ClonedDatabase {
  copyFileSync(templatePath, targetPath);
  // The database's secrets are encrypted with the key file beside it: it travels with the copy.
  if (existsSync(`${templatePath}.key`)) copyFileSync(`${templatePath}.key`, `${targetPath}.key`);
  const started = performance.now();
  const db = new Database(targetPath);
  const sampleIds: string[] = [];
  try {
    // A fixture: no need to survive a crash while it is written, so no journal until it is done.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const templates = db.prepare('select * from messages order by created_at').all() as Row[];
    const attemptsOf = db.prepare('select * from message_attempts where message_id = ?');
    const byBehaviour = new Map<
      RecipientBehaviour,
      { message: Row; attempts: Row[]; timeline: (delta: number) => unknown }
    >();
    for (const message of templates) {
      byBehaviour.set(templateBehaviour(message), {
        message,
        attempts: attemptsOf.all(message.id) as Row[],
        timeline: timelineShifter(message.timeline),
      });
    }
    const fallback = byBehaviour.get('imessage-delivered') ?? [...byBehaviour.values()][0];
    if (!fallback) throw new Error('the template database holds no message');
    const messageColumns = Object.keys(fallback.message);
    const attemptColumns = fallback.attempts[0] ? Object.keys(fallback.attempts[0]) : [];
    const insertMessage = inserter(db, 'messages', messageColumns);
    const insertAttempt =
      attemptColumns.length > 0 ? inserter(db, 'message_attempts', attemptColumns) : undefined;

    const stepMs = 1000;
    const firstAt = Date.now() - (messages + 1) * stepMs;
    const middle = Math.floor(messages / 2);
    const sampleEvery = Math.max(1, Math.floor(messages / 10_000));
    const counters = new Map<RecipientBehaviour, number>();
    // The busy recipient gets the same number of messages in every database, spread evenly over
    // the table: its `to=` page is then the same query with the same 50 rows at 1k and at 1M.
    const busyEvery = Math.max(1, Math.floor(messages / BUSY_RECIPIENT_MESSAGES));

    // Secondary indexes are dropped and rebuilt from the server's own DDL afterwards: building an
    // index from sorted rows is several times faster than updating it row by row.
    const indexes = db
      .prepare(
        "select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in ('messages', 'message_attempts')",
      )
      .all() as Array<{ name: string; sql: string }>;
    db.transaction(() => {
      for (const index of indexes) db.exec(`drop index "${index.name}"`);
      for (let index = 0; index < messages; index += 1) {
        const marker = index === middle || index === middle + 1;
        const busy = !marker && index % busyEvery === busyEvery - 1;
        const behaviour = busy ? 'imessage-delivered' : behaviourOf(index);
        const template = byBehaviour.get(behaviour) ?? fallback;
        const source = template.message;
        const createdAt = firstAt + index * stepMs;
        const delta = createdAt - Number(source.created_at);
        const id = `msg_${uuidv7({ msecs: createdAt })}`;
        const externalId = source.external_id === null ? null : randomUUID().toUpperCase();
        const count = counters.get(behaviour) ?? 0;
        counters.set(behaviour, count + 1);
        const row: Row = { ...source };
        for (const column of messageColumns) {
          if (column.endsWith('_at') && typeof source[column] === 'number') {
            row[column] = Number(source[column]) + delta;
          }
        }
        row.id = id;
        row.to_address = marker
          ? MARKER_RECIPIENT
          : busy
            ? BUSY_RECIPIENT
            : recipientNumber(behaviour, count % recipientCount(behaviour));
        row.timeline = template.timeline(delta);
        row.external_id = externalId;
        row.idempotency_key = source.idempotency_key === null ? null : `seed-${index}`;
        row.correlation_id = `cor_${randomUUID().replaceAll('-', '')}`;
        insertMessage(row);
        for (const attempt of template.attempts) {
          insertAttempt?.({
            ...attempt,
            attempt_id: String(attempt.attempt_id).replace(String(source.id), id),
            message_id: id,
            external_id: attempt.external_id === null ? null : externalId,
            created_at: Number(attempt.created_at) + delta,
          });
        }
        if (index % sampleEvery === 0) sampleIds.push(id);
      }
      for (const index of indexes) db.exec(index.sql);
    })();
    // As the server keeps it.
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  return {
    path: targetPath,
    messages,
    sampleIds,
    busyRecipient: BUSY_RECIPIENT,
    markerRecipient: MARKER_RECIPIENT,
    seedSec: (performance.now() - started) / 1000,
    fileBytes: statSync(targetPath).size,
  };
}
