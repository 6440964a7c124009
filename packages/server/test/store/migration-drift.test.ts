import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../support/child-process';
import { tempDir } from '../support/test-app';

/** drizzle-kit's command line, run with this Node. */
const DRIZZLE_KIT = join(PACKAGE_ROOT, 'node_modules', 'drizzle-kit', 'bin.cjs');

/**
 * Runs `drizzle-kit generate` for `dialect` on a copy of the committed migrations: it writes a
 * migration only when the schema changed without one.
 */
function generateOnCopy(dialect: 'sqlite' | 'postgresql', migrations: string, schema: string) {
  const copy = join(tempDir(), 'migrations');
  cpSync(join(PACKAGE_ROOT, migrations), copy, { recursive: true });
  const before = readdirSync(copy).sort();
  // drizzle-kit prefixes `--out` with `./`: it must be relative to the working directory.
  const output = execFileSync(
    process.execPath,
    [
      DRIZZLE_KIT,
      'generate',
      '--dialect',
      dialect,
      '--schema',
      schema,
      '--out',
      relative(PACKAGE_ROOT, copy),
    ],
    { cwd: PACKAGE_ROOT, encoding: 'utf8' },
  );
  return { before, after: readdirSync(copy).sort(), output };
}

describe('the committed migrations', () => {
  it('match the SQLite schema (no change without a migration)', () => {
    const run = generateOnCopy('sqlite', 'drizzle', './src/store/sqlite/schema*.ts');
    expect(run.after, run.output).toEqual(run.before);
    expect(run.output).toContain('No schema changes');
  });

  it('match the PostgreSQL schema (no change without a migration)', () => {
    const run = generateOnCopy('postgresql', 'drizzle-pg', './src/store/postgres/pg-schema*.ts');
    expect(run.after, run.output).toEqual(run.before);
    expect(run.output).toContain('No schema changes');
  });
});
