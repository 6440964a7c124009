/**
 * Which B-trees a SQLite server's commits write: reads the frames of a copy of its WAL (those of
 * the WAL's current generation, up to the first frame of an older one), counts them per commit
 * and per table or index (mapped through `dbstat` on a copy of the database with that WAL), and
 * prints the table costliest first. Every frame is one page written by a commit, the unit the
 * commit's cost and the checkpoint's copying grow with.
 *
 * Copy the database and its WAL while the end-to-end scenario runs (the WAL is reused from its
 * start after each restart checkpoint, so copy it once it is tens of MB), then:
 *
 *   node bench/probes/wal-pages.cjs copy.db copy.db-wal
 */
const { copyFileSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createRequire } = require('node:module');

const serverRequire = createRequire(join(__dirname, '../../packages/server/package.json'));
const Database = serverRequire('better-sqlite3');

const [databasePath, walPath] = process.argv.slice(2);
if (!databasePath || !walPath) {
  console.error('usage: node bench/probes/wal-pages.cjs <database copy> <WAL copy>');
  process.exit(2);
}

const wal = readFileSync(walPath);
const pageSize = wal.readUInt32BE(8);
const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
/** Page number of each frame of the current generation, and whether it ends a commit. */
const frames = [];
for (let offset = 32; offset + 24 + pageSize <= wal.length; offset += 24 + pageSize) {
  if (wal.readUInt32BE(offset + 8) !== salts[0] || wal.readUInt32BE(offset + 12) !== salts[1]) {
    break;
  }
  frames.push({ page: wal.readUInt32BE(offset), commit: wal.readUInt32BE(offset + 4) !== 0 });
}

// dbstat on a copy that includes the WAL: pages allocated since the last checkpoint are named too.
const dir = mkdtempSync(join(tmpdir(), 'wal-pages-'));
try {
  copyFileSync(databasePath, join(dir, 'copy.db'));
  copyFileSync(walPath, join(dir, 'copy.db-wal'));
  const db = new Database(join(dir, 'copy.db'), { readonly: true });
  const owner = new Map();
  for (const row of db.prepare('select name, pageno, pagetype from dbstat').all()) {
    owner.set(row.pageno, row.pagetype === 'leaf' ? row.name : `${row.name} (${row.pagetype})`);
  }
  db.close();

  const commits = frames.filter((frame) => frame.commit).length;
  const counts = new Map();
  for (const { page } of frames) {
    const name = owner.get(page) ?? '(free or new)';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  console.log(
    `${frames.length} frames of ${pageSize} bytes in ${commits} commits: ${(frames.length / Math.max(1, commits)).toFixed(1)} a commit`,
  );
  console.log('frames  per commit  table or index');
  for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1])) {
    console.log(
      `${String(count).padStart(6)}  ${(count / Math.max(1, commits)).toFixed(2).padStart(10)}  ${name}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
