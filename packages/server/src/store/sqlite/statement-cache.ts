import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/** Distinct SQL texts kept prepared; `inArray` and multi-row inserts vary the text, so it is bounded. */
const DEFAULT_CAPACITY = 500;

/**
 * A view of `sqlite` whose `prepare` reuses the statement prepared earlier for the same SQL text
 * (least recently used first out). drizzle prepares every query it runs, and preparing cost more
 * than running on the hot paths (the send, the delivery worker). Everything else is the
 * connection's own, through the prototype.
 */
export function withStatementCache(
  sqlite: Database.Database,
  capacity = DEFAULT_CAPACITY,
): Database.Database {
  const statements = new LRUCache<string, Database.Statement>({ max: capacity });
  const client: Database.Database = Object.create(sqlite);
  client.prepare = ((source: string) => {
    let statement = statements.get(source);
    if (statement) {
      // drizzle switches a statement to raw (array) rows for its typed selects; a later plain
      // `all()` on the same text expects objects again.
      if (statement.reader) statement.raw(false);
    } else {
      statement = sqlite.prepare(source);
      statements.set(source, statement);
    }
    return statement;
  }) as Database.Database['prepare'];
  return client;
}
