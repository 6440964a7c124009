/**
 * What SQLite's locking adds to a statement run outside a transaction, on this machine: the same
 * point read by primary key (the shape of the server's look-ups: an API key, a customer, a sender)
 * timed as autocommit statements and inside one open transaction, with the server's pragmas, on a
 * scratch WAL database. An autocommit read takes and drops a read lock on the `-shm` file (two
 * `fcntl` calls) around itself; inside a transaction it does not. Prints CPU microseconds per read
 * for each, three rounds:
 *
 *   node bench/probes/sqlite-lock-cost.cjs
 *
 * `strace -c -f node bench/probes/sqlite-lock-cost.cjs` shows the two `fcntl` calls per
 * autocommit read.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createRequire } = require('node:module');

const serverRequire = createRequire(join(__dirname, '../../packages/server/package.json'));
const Database = serverRequire('better-sqlite3');

const ROWS = 100_000;
const READS = 200_000;

const dir = mkdtempSync(join(tmpdir(), 'sqlite-lock-cost-'));
const db = new Database(join(dir, 'probe.db'));
try {
  db.pragma('page_size = 2048');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table rows (id text primary key, body text not null)');
  const insert = db.prepare('insert into rows (id, body) values (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < ROWS; i += 1) insert.run(`row_${i}`, 'x'.repeat(200));
  })();
  const read = db.prepare('select id, body from rows where id = ?');

  /** CPU microseconds per read of `reads` reads. */
  const timed = (reads) => {
    const before = process.cpuUsage();
    reads();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / READS;
  };
  const readAll = () => {
    for (let i = 0; i < READS; i += 1) read.get(`row_${i % ROWS}`);
  };
  for (let round = 1; round <= 3; round += 1) {
    const autocommit = timed(readAll);
    const inTransaction = timed(() => {
      db.exec('begin');
      readAll();
      db.exec('commit');
    });
    console.log(
      `round ${round}: autocommit ${autocommit.toFixed(2)} µs per read, in a transaction ${inTransaction.toFixed(2)} µs (${(autocommit / inTransaction).toFixed(1)}×)`,
    );
  }
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
