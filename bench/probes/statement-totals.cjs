/**
 * What the statement probes share: totals of calls and wall time per statement, turned into
 * rows and written to `bench/results/tmp/<name>-<pid>.json` every 2 s and at exit.
 */
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const outDir = join(__dirname, '../results/tmp');

/** Per-statement totals: `add(key, micros)` counts one call; `rows()` lists them. */
function statementTotals() {
  const totals = new Map();
  return {
    add(key, micros) {
      const entry = totals.get(key) ?? { calls: 0, micros: 0 };
      entry.calls += 1;
      entry.micros += micros;
      totals.set(key, entry);
    },
    rows() {
      return [...totals].map(([statement, { calls, micros }]) => ({
        statement,
        calls,
        totalMs: Math.round(micros / 1000),
        microsEach: Math.round((micros / calls) * 10) / 10,
      }));
    },
  };
}

/** Writes `report()` (skipped when it gives undefined) as `<name>-<pid>.json`, every 2 s and at exit. */
function writePeriodically(name, report) {
  const write = () => {
    const data = report();
    if (data === undefined) return;
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, `${name}-${process.pid}.json`), JSON.stringify(data, null, 1));
  };
  process.on('exit', write);
  setInterval(write, 2000).unref();
}

module.exports = { statementTotals, writePeriodically };
