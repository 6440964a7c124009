import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// The size budgets of package.json's `size-limit` section (the client entry ≤ 12 KB gzip, the
// webhooks entry ≤ 2 KB gzip), measured by size-limit on the built entries with everything they
// import, minified. The suite's global setup builds dist/.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const budgets = (
  JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    'size-limit': { name: string; limit: string }[];
  }
)['size-limit'];

it('keeps every entry within its size budget', async () => {
  const cli = join(packageDir, 'node_modules', 'size-limit', 'bin.js');
  const { stdout } = await promisify(execFile)(process.execPath, [cli, '--json'], {
    cwd: packageDir,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '[]' }));
  const results = JSON.parse(stdout) as { name: string; size: number; passed: boolean }[];
  expect(results.map((result) => result.name)).toEqual(budgets.map((budget) => budget.name));
  for (const result of results) {
    expect(result, `${result.name}: ${result.size} bytes`).toMatchObject({ passed: true });
  }
}, 120_000);
