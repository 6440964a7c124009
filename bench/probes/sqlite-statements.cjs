/**
 * A diagnostic preload for the server process: times every SQLite statement it runs (wall time
 * of better-sqlite3's `run`, `get`, `all` and `iterate`, grouped by SQL text) and writes the
 * totals, costliest first, to `bench/results/tmp/sqlite-statements-<pid>.json` every 2 s and at
 * exit. Load it through the harness, which passes `BENCH_SERVER_<NAME>` to the server:
 *
 *   BENCH_SERVER_NODE_OPTIONS="--require $PWD/bench/probes/sqlite-statements.cjs" \
 *     pnpm bench --only=end-to-end --out=/tmp/probed
 *
 * A statement run outside a transaction is counted apart, as `<method> (autocommit) <sql>`: SQLite
 * takes and drops its read lock around each one (two `fcntl` calls on the `-shm` file), which a
 * statement inside a transaction does not pay.
 *
 * It slows every statement by a few hundred nanoseconds: compare statements with each other in
 * one run, never the run's throughput with an unprobed one.
 */
const { join } = require('node:path');
const { createRequire } = require('node:module');
const { statementTotals, writePeriodically } = require('./statement-totals.cjs');

const serverRequire = createRequire(join(__dirname, '../../packages/server/package.json'));
const Database = serverRequire('better-sqlite3');
const totals = statementTotals();
/** Each statement's key, normalised once rather than on every call. */
const keys = new WeakMap();
let patched = false;

/** Wraps one method of better-sqlite3's Statement class with a timer. */
function timeMethod(proto, name) {
  const original = proto[name];
  proto[name] = function timed(...args) {
    const autocommit = !this.database.inTransaction;
    const started = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      let source = keys.get(this);
      if (source === undefined) {
        source = this.source.replace(/\s+/g, ' ').trim();
        keys.set(this, source);
      }
      totals.add(
        `${name}${autocommit ? ' (autocommit)' : ''} ${source}`,
        Number(process.hrtime.bigint() - started) / 1000,
      );
    }
  };
}

const prepare = Database.prototype.prepare;
Database.prototype.prepare = function prepareTimed(source) {
  const statement = prepare.call(this, source);
  if (!patched) {
    patched = true;
    const proto = Object.getPrototypeOf(statement);
    for (const name of ['run', 'get', 'all', 'iterate']) timeMethod(proto, name);
  }
  return statement;
};

writePeriodically('sqlite-statements', () => totals.rows().sort((a, b) => b.totalMs - a.totalMs));
