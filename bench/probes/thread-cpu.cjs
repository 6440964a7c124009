/**
 * How busy each thread of a running server is: samples `/proc/<pid>/task/<tid>/stat` (user and
 * system time) once a second and prints, for every second, each thread's share of one core, the
 * main thread (the event loop) first. Node names none of its threads, so the others are told
 * apart by when they started, in seconds after the process: V8's platform threads and the
 * SQLite checkpoint worker start with the process, the webhook signing thread with the first
 * webhook attempt, libuv's pool on first use.
 *
 * Run it beside a benchmark (the server of the end-to-end scenario is
 * `packages/server/dist/main.js`):
 *
 *   node bench/probes/thread-cpu.cjs "$(pgrep -f packages/server/dist/main.js | head -1)" 30
 *
 * At the end of the window, or when the process ends, it also prints each thread's CPU seconds
 * over the whole window (a thread that ended on the way keeps what it used): divided by the
 * messages a run delivered, that is each thread's CPU per message. Pass 0 seconds to sample until
 * the process ends.
 */
const { readFileSync, readdirSync } = require('node:fs');

const [pidArgument, secondsArgument] = process.argv.slice(2);
const pid = Number(pidArgument);
const seconds = Number(secondsArgument ?? 20);
if (!Number.isInteger(pid) || pid <= 0 || !Number.isFinite(seconds)) {
  console.error('usage: node bench/probes/thread-cpu.cjs <server pid> [seconds]');
  process.exit(2);
}

/** Clock ticks per second of `/proc`'s times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The fields of a `stat` file after its `(comm)`, which may hold spaces. */
function statFields(path) {
  const text = readFileSync(path, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** Each thread's CPU ticks so far and its start, in ticks after boot. */
function sample() {
  const threads = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      // After `(comm)`: state is field 0, utime 11, stime 12, starttime 19.
      const fields = statFields(`/proc/${pid}/task/${tid}/stat`);
      threads.set(Number(tid), {
        ticks: Number(fields[11]) + Number(fields[12]),
        start: Number(fields[19]),
      });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

const processStart = Number(statFields(`/proc/${pid}/stat`)[19]);
let previous = sample();
/** Each thread's ticks when the window opened (0 for threads started since), and the latest seen. */
const first = new Map([...previous].map(([tid, { ticks }]) => [tid, ticks]));
const latest = new Map(previous);
let left = seconds > 0 ? seconds : Number.POSITIVE_INFINITY;

function threadLabel(tid, start) {
  const started = ((start - processStart) / TICKS_PER_SECOND).toFixed(1);
  return tid === pid ? 'main' : `${tid} (started +${started} s)`;
}

/** Prints each thread's CPU seconds over the window, most first, the main thread first. */
function printTotals() {
  const rows = [...latest].map(([tid, { ticks, start }]) => ({
    tid,
    label: threadLabel(tid, start),
    seconds: (ticks - (first.get(tid) ?? 0)) / TICKS_PER_SECOND,
  }));
  rows.sort((a, b) => (a.tid === pid ? -1 : b.tid === pid ? 1 : b.seconds - a.seconds));
  const total = rows.reduce((sum, row) => sum + row.seconds, 0);
  console.log(`CPU over the window: all ${total.toFixed(2)} s`);
  for (const row of rows.filter((row) => row.seconds > 0)) {
    console.log(`  ${row.label}: ${row.seconds.toFixed(2)} s`);
  }
}

const timer = setInterval(() => {
  let current;
  try {
    current = sample();
  } catch {
    clearInterval(timer);
    console.log('the process has ended');
    printTotals();
    return;
  }
  for (const [tid, now] of current) latest.set(tid, now);
  const shares = [];
  for (const [tid, now] of current) {
    const before = previous.get(tid)?.ticks ?? 0;
    const busy = now.ticks - before;
    if (busy <= 0 && tid !== pid) continue;
    shares.push({
      tid,
      label: threadLabel(tid, now.start),
      percent: (busy * 100) / TICKS_PER_SECOND,
    });
  }
  shares.sort((a, b) => (a.tid === pid ? -1 : b.tid === pid ? 1 : b.percent - a.percent));
  const total = shares.reduce((sum, share) => sum + share.percent, 0);
  const cells = shares.map((share) => `${share.label} ${share.percent.toFixed(0)} %`);
  console.log(
    `${new Date().toISOString().slice(11, 19)}  all ${total.toFixed(0)} %  ${cells.join(', ')}`,
  );
  previous = current;
  left -= 1;
  if (left <= 0) {
    clearInterval(timer);
    printTotals();
  }
}, 1000);
