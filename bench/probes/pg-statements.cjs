/**
 * A diagnostic preload for the server process on PostgreSQL: counts every statement it sends
 * through `pg` and times each one's round trip (wall time from `query()` until its answer, grouped
 * by SQL text), and writes the totals, most frequent first, to
 * `bench/results/tmp/pg-statements-<pid>.json` every 2 s and at exit. `messagesInserted` (the
 * count of `insert into "messages"`) turns the counts into statements per message. Load it
 * through the harness, which passes `BENCH_SERVER_<NAME>` to every server process it starts:
 *
 *   BENCH_SERVER_NODE_OPTIONS="--require $PWD/bench/probes/pg-statements.cjs" \
 *     pnpm bench --only=scale-out --out=/tmp/probed
 *
 * Wall time includes the wait for PostgreSQL and for the event loop: compare statements with
 * each other in one run, never the run's throughput with an unprobed one.
 */
const { join } = require('node:path');
const { createRequire } = require('node:module');
const { statementTotals, writePeriodically } = require('./statement-totals.cjs');

const serverRequire = createRequire(join(__dirname, '../../packages/server/package.json'));
const pg = serverRequire('pg');
const totals = statementTotals();
let sent = 0;

/** Each SQL text's key, whitespace folded once rather than on every call. */
const keys = new Map();

/** The SQL text of a query as `pg` takes it, whitespace folded. */
function keyOf(config) {
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text !== 'string') return '(not a text query)';
  let key = keys.get(text);
  if (key === undefined) {
    key = text.replace(/\s+/g, ' ').trim();
    keys.set(text, key);
  }
  return key;
}

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function timedQuery(config, ...rest) {
  sent += 1;
  const key = keyOf(config);
  const started = process.hrtime.bigint();
  const record = () => totals.add(key, Number(process.hrtime.bigint() - started) / 1000);
  const last = rest.length - 1;
  const callback = last >= 0 && typeof rest[last] === 'function' ? rest[last] : undefined;
  if (callback) {
    rest[last] = function answered(...answer) {
      record();
      return callback.apply(this, answer);
    };
  }
  const result = query.call(this, config, ...rest);
  if (result && typeof result.then === 'function') result.then(record, record);
  else if (!callback) record();
  return result;
};

writePeriodically('pg-statements', () => {
  if (sent === 0) return undefined;
  const rows = totals.rows().sort((a, b) => b.calls - a.calls);
  const messagesInserted = rows
    .filter((row) => row.statement.startsWith('insert into "messages"'))
    .reduce((sum, row) => sum + row.calls, 0);
  return { sent, messagesInserted, statements: rows };
});
