import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Most statements one connection keeps prepared on the database server. The store's statements
 * are a fixed set of texts (about a hundred); a text past the limit (a list filter with a new
 * number of values, say) runs unnamed, as every statement did before, so neither the server's
 * memory nor the client's grows with the variety of texts.
 */
const NAMED_STATEMENTS_PER_CONNECTION = 256;

/** When a connection first remakes its cached plans, and the longest it waits between two. */
const PLAN_REFRESH = { firstMs: 1000, longestMs: 5 * 60 * 1000 } as const;

/** Options of {@link nameStatements}. */
export interface StatementNamingOptions {
  /** Most named statements on the connection ({@link NAMED_STATEMENTS_PER_CONNECTION}). */
  limit?: number;
  /** When the connection first remakes its plans, then the longest gap ({@link PLAN_REFRESH}). */
  planRefresh?: { firstMs: number; longestMs: number };
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

/** The part of a `pg` query config the naming reads and sets. */
interface QueryConfigLike {
  text?: unknown;
  name?: unknown;
  values?: unknown;
}

type Query = (...args: unknown[]) => unknown;

/** The name of a statement: `sb_` and a digest of its text, so one text has one name everywhere. */
function statementName(text: string): string {
  return `sb_${createHash('sha1').update(text).digest('base64url')}`;
}

/**
 * Makes `client` run each parameterised statement as a named (prepared) statement, named after
 * its text: PostgreSQL parses it once per connection and, after five runs, plans it once (a
 * generic plan), where an unnamed statement is parsed and planned at every run. Statements
 * without parameters (`BEGIN`, `COMMIT`, migrations) stay on the simple protocol, and a query
 * that already has a name keeps it.
 *
 * A generic plan is made for the tables' sizes when it is made, and PostgreSQL remakes it only
 * when a table is analysed: a plan made while a new database's tables were nearly empty (a scan
 * of the wrong index, cheap at ten rows) would outlive their growth until autovacuum's first
 * analyse. So the connection drops its cached plans (`DISCARD PLANS`, the statements stay
 * prepared) before a statement once {@link PLAN_REFRESH}'s first delay has passed, then after
 * twice that, and so on up to every five minutes: tables grow by orders of magnitude in a
 * database's first minutes and rarely later (decision 0608).
 * @example pool.on('connect', (client) => nameStatements(client));
 */
export function nameStatements(client: pg.ClientBase, options: StatementNamingOptions = {}): void {
  const limit = options.limit ?? NAMED_STATEMENTS_PER_CONNECTION;
  const refresh = options.planRefresh ?? PLAN_REFRESH;
  const now = options.now ?? Date.now;
  const names = new Map<string, string>();
  let gap = refresh.firstMs;
  let refreshAt = now() + gap;
  const query = client.query.bind(client) as Query;
  const named = (config: QueryConfigLike, values: unknown): QueryConfigLike | undefined => {
    const { text } = config;
    if (typeof text !== 'string' || config.name) return undefined;
    const parameters = Array.isArray(values) ? values : config.values;
    if (!Array.isArray(parameters) || parameters.length === 0) return undefined;
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= limit) return undefined;
      name = statementName(text);
      names.set(text, name);
    }
    return { ...config, name };
  };
  (client as unknown as { query: Query }).query = (...args) => {
    const [asked, values] = args;
    const config = typeof asked === 'string' ? { text: asked } : asked;
    if (config === null || typeof config !== 'object' || 'submit' in config) return query(...args);
    const withName = named(config as QueryConfigLike, values);
    if (!withName) return query(...args);
    args[0] = withName;
    if (now() < refreshAt) return query(...args);
    gap = Math.min(gap * 2, refresh.longestMs);
    refreshAt = now() + gap;
    return afterPlansDiscarded(query, args);
  };
}

/**
 * Runs `DISCARD PLANS` and then `args` on `query`, both queued at once so `pg` runs them in that
 * order, before any query asked after this one (waiting for the discard first would let a later
 * query of the same transaction overtake this one). A discard that fails (a transaction already
 * aborted, which the query will report itself) is ignored.
 */
function afterPlansDiscarded(query: Query, args: unknown[]): unknown {
  (query('discard plans') as Promise<unknown>).catch(() => undefined);
  return query(...args);
}
