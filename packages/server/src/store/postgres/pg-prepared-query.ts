import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { builtOncePer } from '../built-once';
import { changed, type PgOrm } from './pg-executor';

/** What drizzle runs a database's statements on: the pool, or the client of a transaction. */
function connectionOf(db: PgOrm): object {
  return (db as unknown as { _: { session: { client: object } } })._.session.client;
}

/**
 * A query built once per connection and reused: drizzle rebuilds a query's SQL every time it runs
 * (the largest share of the server's CPU per statement on PostgreSQL), while a prepared query
 * with placeholders is only bound and run. It is built again for each connection of the pool (a
 * transaction's client, or the pool itself outside one), because drizzle binds a prepared query
 * to one; `prepare('')` keeps it an unnamed statement, so nothing stays on the database server
 * and a pooler in transaction mode keeps working. A placeholder in a condition (`eq(column,
 * sql.placeholder(name))`) is sent as it is, so it suits text, numbers, a `Date` or null; one in
 * `values()` or `set()` is encoded by its column (see {@link preparedInsert}).
 * @example const byId = pgPreparedQuery((db) => db.select().from(t).where(eq(t.id, sql.placeholder('id'))).prepare(''));
 */
export function pgPreparedQuery<Q>(build: (db: PgOrm) => Q): (db: PgOrm) => Q {
  const byShape = pgPreparedQueries((db, _shape: 'only') => build(db));
  return (db) => byShape(db, 'only');
}

/**
 * Like {@link pgPreparedQuery} for a statement whose shape varies (the fields a write sets): one
 * prepared query per connection and `shape`, built by `build(db, shape)`. Shapes must be few (a
 * key made of which fields are present, see {@link rowShape}), never values.
 * @example const update = pgPreparedQueries((db, shape: string) => …); update(db, rowShape(patch)).execute(patch);
 */
function pgPreparedQueries<S extends string, Q>(
  build: (db: PgOrm, shape: S) => Q,
): (db: PgOrm, shape: S) => Q {
  return builtOncePer(connectionOf, build);
}

/**
 * The shape of a row to write: its fields that are set, in order, each marked when null. Two rows
 * of one shape are written by the same statement with different values.
 * @example rowShape({ status: 'sent', error: null, text: undefined }) // 'status,error=null,'
 */
function rowShape(row: Readonly<Record<string, unknown>>): string {
  let shape = '';
  for (const key in row) {
    const value = row[key];
    if (value === undefined) continue;
    shape += value === null ? `${key}=null,` : `${key},`;
  }
  return shape;
}

/**
 * The values to build a write of `shape` (from {@link rowShape}) with: a placeholder named after
 * each set field (drizzle encodes its value through the field's column when the query runs), and
 * null where the row is null. Run the prepared write with the row itself as the placeholder values.
 * @example db.update(messages).set(rowPlaceholders(shape)).where(eq(messages.id, sql.placeholder('$id')))
 */
function rowPlaceholders(shape: string, prefix = ''): Record<string, Placeholder | null> {
  const values: Record<string, Placeholder | null> = {};
  for (const field of shape.split(',')) {
    if (field === '') continue;
    if (field.endsWith('=null')) values[field.slice(0, -'=null'.length)] = null;
    else values[field] = sql.placeholder(`${prefix}${field}`);
  }
  return values;
}

/** `row`'s fields, each named with `prefix` in front: the values of {@link rowPlaceholders}' names. */
function prefixed(
  row: Readonly<Record<string, unknown>>,
  prefix: string,
  into: Record<string, unknown>,
): Record<string, unknown> {
  for (const key in row) into[`${prefix}${key}`] = row[key];
  return into;
}

/**
 * An insert of one row into `table`, prepared once per connection and shape of row (the fields
 * it sets) instead of built on every call; resolves to the number of rows inserted (0 when
 * `onConflictDoNothing` skipped a duplicate). For tables without defaults computed in JavaScript
 * (`$defaultFn`), which a statement built once would compute once.
 * @example const insertEvent = preparedInsert(events); await insertEvent(db, event);
 */
export function preparedInsert<T extends PgTable>(
  table: T,
  options: { onConflictDoNothing?: boolean } = {},
): (db: PgOrm, row: T['$inferInsert']) => Promise<number> {
  const statement = pgPreparedQueries((db, shape: string) => {
    const insert = db.insert(table).values(rowPlaceholders(shape) as T['$inferInsert']);
    return (options.onConflictDoNothing ? insert.onConflictDoNothing() : insert).prepare('');
  });
  return async (db, row) =>
    changed(await statement(db, rowShape(row)).execute(row as Record<string, unknown>));
}

/**
 * An insert of one row into `parent` together with one row into `child` that refers to it, in
 * one statement (the parent's insert a data-modifying `WITH`: one round trip, and atomic on its
 * own), prepared once per connection and pair of row shapes. For tables without defaults
 * computed in JavaScript, as {@link preparedInsert}.
 * @example const insertEventWithAttempt = preparedInsertPair(events, webhookDeliveries);
 *   await insertEventWithAttempt(db, event, attempt);
 */
export function preparedInsertPair<P extends PgTable, C extends PgTable>(
  parent: P,
  child: C,
): (db: PgOrm, parentRow: P['$inferInsert'], childRow: C['$inferInsert']) => Promise<void> {
  const statement = pgPreparedQueries((db, key: string) => {
    const split = key.indexOf('|');
    const parentValues = rowPlaceholders(key.slice(0, split), 'p.') as P['$inferInsert'];
    const childValues = rowPlaceholders(key.slice(split + 1), 'c.') as C['$inferInsert'];
    const inserted = db.$with('inserted').as(db.insert(parent).values(parentValues).returning());
    return db.with(inserted).insert(child).values(childValues).prepare('');
  });
  return async (db, parentRow, childRow) => {
    const parentFields = parentRow as Record<string, unknown>;
    const childFields = childRow as Record<string, unknown>;
    const values = prefixed(childFields, 'c.', prefixed(parentFields, 'p.', {}));
    await statement(db, `${rowShape(parentFields)}|${rowShape(childFields)}`).execute(values);
  };
}

/**
 * An update of the rows of `table` that meet a condition, prepared once per connection, shape of
 * patch (the fields it sets) and `variant` of the condition, instead of built on every call. The
 * condition's placeholders are named with a leading `$` (`sql.placeholder('$id')`), so they never
 * meet a field of the patch; resolves to the number of rows changed.
 * @example const setExternalId = preparedUpdate(attempts, () => eq(attempts.attemptId, sql.placeholder('$id')));
 *   await setExternalId(db, { externalId }, { $id: attemptId });
 */
export function preparedUpdate<T extends PgTable, V extends string = 'only'>(
  table: T,
  where: (variant: V) => SQL | undefined,
): (
  db: PgOrm,
  patch: Partial<T['$inferInsert']>,
  keys: Readonly<Record<`$${string}`, unknown>>,
  variant?: V,
) => Promise<number> {
  const statement = pgPreparedQueries((db, key: string) => {
    const split = key.indexOf('|');
    const variant = key.slice(0, split) as V;
    const set = rowPlaceholders(key.slice(split + 1)) as Partial<T['$inferInsert']>;
    return db.update(table).set(set).where(where(variant)).prepare('');
  });
  return async (db, patch, keys, variant = 'only' as V) => {
    const shape = rowShape(patch as Record<string, unknown>);
    if (shape === '') throw new Error('No values to set');
    const values = { ...(patch as Record<string, unknown>), ...keys };
    return changed(await statement(db, `${variant}|${shape}`).execute(values));
  };
}

/**
 * A look-up of the first row of `table` whose columns equal the given values (`keys` names a
 * placeholder for each column), prepared once per connection instead of built on every call.
 * @example const customerById = preparedFirstBy(customers, { id: customers.id });
 *   const customer = await customerById(db, { id });
 */
export function preparedFirstBy<T extends PgTable, K extends string>(
  table: T,
  keys: Readonly<Record<K, PgColumn>>,
): (db: PgOrm, values: Readonly<Record<K, string>>) => Promise<T['$inferSelect'] | undefined> {
  const statement = pgPreparedQuery((db) =>
    db
      .select()
      .from(table as PgTable)
      .where(
        and(
          ...Object.entries<PgColumn>(keys).map(([name, column]) =>
            eq(column, sql.placeholder(name)),
          ),
        ),
      )
      .limit(1)
      .prepare(''),
  );
  return async (db, values) => (await statement(db).execute(values))[0] as T['$inferSelect'];
}
