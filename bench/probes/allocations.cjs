/**
 * A diagnostic preload for the server process: samples the heap allocations of its main thread
 * with V8's sampling heap profiler, counting objects that garbage collection has already freed
 * (the short-lived ones that make the collector busy), and writes the bytes allocated per
 * function, most first, to `bench/results/tmp/allocations-<pid>.json` every 30 s and at exit.
 * Load it through the harness, which passes `BENCH_SERVER_<NAME>` to the server:
 *
 *   BENCH_SERVER_NODE_OPTIONS="--require $PWD/bench/probes/allocations.cjs" \
 *     pnpm bench --only=end-to-end --out=/tmp/probed
 *
 * Each row gives a function (`name file:line`) with the bytes sampled in it (`selfMB`) and in it
 * and what it called (`totalMB`). Sampling costs little, but compare rows of one run with each
 * other, never the run's throughput with an unprobed one. The profile itself is written beside
 * it as `allocations-<pid>.heapprofile`, which Chrome DevTools opens (Memory → Load).
 */
const inspector = require('node:inspector');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const outDir = join(__dirname, '../results/tmp');
const session = new inspector.Session();
session.connect();
session.post('HeapProfiler.enable');
session.post('HeapProfiler.startSampling', {
  samplingInterval: 16384,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});

/** Self and inclusive bytes per function, from the profile's call tree. */
function rows(head) {
  const byFunction = new Map();
  const visit = (node, onStack) => {
    const frame = node.callFrame;
    const file = frame.url.replace(/^.*\//, '');
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    const self = node.selfSize;
    let total = self;
    const entry = byFunction.get(key) ?? { self: 0, total: 0 };
    entry.self += self;
    byFunction.set(key, entry);
    const stack = new Set(onStack).add(key);
    for (const child of node.children) total += visit(child, stack);
    // Recursion counts a frame's subtree once, at its outermost call.
    if (!onStack.has(key)) entry.total += total;
    return total;
  };
  const all = visit(head, new Set());
  return {
    sampledMB: Math.round(all / 1e5) / 10,
    functions: [...byFunction]
      .map(([fn, { self, total }]) => ({
        fn,
        selfMB: Math.round(self / 1e5) / 10,
        totalMB: Math.round(total / 1e5) / 10,
      }))
      .filter((row) => row.totalMB >= 1)
      .sort((a, b) => b.selfMB - a.selfMB || b.totalMB - a.totalMB),
  };
}

function write() {
  session.post('HeapProfiler.getSamplingProfile', (error, result) => {
    if (error || !result) return;
    mkdirSync(outDir, { recursive: true });
    const report = rows(result.profile.head);
    writeFileSync(join(outDir, `allocations-${process.pid}.json`), JSON.stringify(report, null, 1));
    // The whole profile too, for DevTools (Memory → Load) or a look at who calls whom.
    writeFileSync(
      join(outDir, `allocations-${process.pid}.heapprofile`),
      JSON.stringify(result.profile),
    );
  });
}

process.on('exit', write);
// Rarely: reading and writing the profile allocates too, and is sampled like the rest.
setInterval(write, 30_000).unref();
