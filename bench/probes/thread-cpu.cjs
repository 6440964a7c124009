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
let left = seconds;
const timer = setInterval(() => {
  let current;
  try {
    current = sample();
  } catch {
    clearInterval(timer);
    console.log('the process has ended');
    return;
  }
  const shares = [];
  for (const [tid, now] of current) {
    const before = previous.get(tid)?.ticks ?? 0;
    const busy = now.ticks - before;
    if (busy <= 0 && tid !== pid) continue;
    const started = ((now.start - processStart) / TICKS_PER_SECOND).toFixed(1);
    const label = tid === pid ? 'main' : `${tid} (started +${started} s)`;
    shares.push({ tid, label, percent: (busy * 100) / TICKS_PER_SECOND });
  }
  shares.sort((a, b) => (a.tid === pid ? -1 : b.tid === pid ? 1 : b.percent - a.percent));
  const total = shares.reduce((sum, share) => sum + share.percent, 0);
  const cells = shares.map((share) => `${share.label} ${share.percent.toFixed(0)} %`);
  console.log(
    `${new Date().toISOString().slice(11, 19)}  all ${total.toFixed(0)} %  ${cells.join(', ')}`,
  );
  previous = current;
  left -= 1;
  if (left <= 0) clearInterval(timer);
}, 1000);
