#!/usr/bin/env node
// Adds up the vitest JSON reports of every workspace package and prints one closing line
// ("Tests: N passed, N failed, N skipped") so CI logs end with a total across the monorepo.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dirs = ['packages', 'examples', 'bench'].flatMap((group) => {
  const base = join(root, group);
  if (!existsSync(base)) return [];
  if (group === 'bench') return [base];
  return readdirSync(base).map((name) => join(base, name));
});

let passed = 0;
let failed = 0;
let skipped = 0;
for (const dir of dirs) {
  const file = join(dir, '.vitest-results.json');
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
