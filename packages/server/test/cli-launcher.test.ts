import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/test-app';

/** The repository's `./switchboard` launcher. */
const LAUNCHER = new URL('../../../switchboard', import.meta.url).pathname;

/** Writes `content` to `path` (its folders made), modified at `seconds` since the epoch. */
function file(path: string, content: string, seconds: number, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content, { mode });
  utimesSync(path, seconds, seconds);
}

/**
 * A copy of the repository's layout around the launcher: a "built" CLI and a "tsx" that each say
 * which one ran, and one source file of each package the built CLI bundles.
 */
function layout(): { root: string; run(env?: Record<string, string>): string } {
  const root = tempDir();
  copyFileSync(LAUNCHER, join(root, 'switchboard'));
  file(
    join(root, 'packages/server/dist/cli.js'),
    'console.log("built", ...process.argv.slice(2));',
    2_000,
  );
  file(
    join(root, 'packages/server/node_modules/.bin/tsx'),
    '#!/bin/sh\necho source "$@"\n',
    1_000,
    0o755,
  );
  for (const source of [
    'packages/server/src/cli.ts',
    'packages/contract/src/index.ts',
    'packages/provider-kit/src/index.ts',
    'packages/server/tsup.config.ts',
    'packages/server/package.json',
    'pnpm-lock.yaml',
  ]) {
    file(join(root, source), source.endsWith('.json') ? '{"type":"module"}' : '', 1_000);
  }
  const run = (env: Record<string, string> = {}) =>
    execFileSync('sh', [join(root, 'switchboard'), '--version'], {
      encoding: 'utf8',
      env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, ...env },
    }).trim();
  return { root, run };
}

describe('./switchboard', () => {
  it('runs the built CLI while no source is newer than it', () => {
    const { run } = layout();
    expect(run()).toBe('built --version');
  });

  it('runs the sources when one of the bundled sources changed after the build', () => {
    for (const changed of [
      'packages/server/src/cli.ts',
      'packages/contract/src/index.ts',
      'packages/provider-kit/src/index.ts',
      'pnpm-lock.yaml',
    ]) {
      const { root, run } = layout();
      utimesSync(join(root, changed), 3_000, 3_000);
      expect(run(), changed).toMatch(/^source .*cli\.ts --version$/);
    }
  });

  it('runs the sources when nothing is built, or when asked to', () => {
    const { root, run } = layout();
    expect(run({ SWITCHBOARD_CLI_FROM_SOURCE: '1' })).toMatch(/^source .*cli\.ts --version$/);
    execFileSync('rm', [join(root, 'packages/server/dist/cli.js')]);
    expect(run()).toMatch(/^source .*cli\.ts --version$/);
  });
});
