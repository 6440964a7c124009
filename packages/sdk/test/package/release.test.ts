import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The release flow of docs/releasing.md, short of the registry: the pending changesets become
// versions and changelogs (on a copy of the workspace's manifests), and each published package
// goes through `pnpm publish --dry-run` (its prepack, the packing, npm's checks).
const workspaceDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Released together, at one version. */
const fixed = ['contract', 'sdk', 'server'] as const;
/** Every published package: the fixed group, and the WhatsApp adapter on its own version line. */
const published = [...fixed, 'provider-baileys'] as const;
const changeset = join(
  dirname(
    createRequire(join(workspaceDir, 'package.json')).resolve('@changesets/cli/package.json'),
  ),
  'bin.js',
);
const copy = mkdtempSync(join(tmpdir(), 'switchboard-release-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const versionOf = (dir: string, name: string) =>
  (
    JSON.parse(readFileSync(join(dir, 'packages', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

describe('the release flow', () => {
  it('turns the pending changesets into versions (one for the fixed group) and a changelog per published package', () => {
    for (const file of ['package.json', 'pnpm-workspace.yaml', '.changeset']) {
      cpSync(join(workspaceDir, file), join(copy, file), { recursive: true });
    }
    for (const name of [...published, 'provider-kit', 'testing']) {
      cpSync(
        join(workspaceDir, 'packages', name, 'package.json'),
        join(copy, 'packages', name, 'package.json'),
      );
    }
    execFileSync('git', ['init', '-q'], { cwd: copy });
    execFileSync(process.execPath, [changeset, 'version'], { cwd: copy, stdio: 'pipe' });

    const versions = fixed.map((name) => versionOf(copy, name));
    expect(new Set(versions).size).toBe(1);
    expect(versions[0]).not.toBe(versionOf(workspaceDir, 'sdk'));
    for (const name of published) {
      const version = versionOf(copy, name);
      expect(version).not.toBe(versionOf(workspaceDir, name));
      expect(readFileSync(join(copy, 'packages', name, 'CHANGELOG.md'), 'utf8')).toContain(
        `## ${version}`,
      );
    }
    // Private packages are neither versioned nor given a changelog.
    expect(existsSync(join(copy, 'packages', 'testing', 'CHANGELOG.md'))).toBe(false);
  });

  it.each(published)(
    'publishes @switchboard/%s in a dry run',
    (name) => {
      const output = execFileSync(
        'pnpm',
        ['publish', '--dry-run', '--no-git-checks', '--access', 'public'],
        { cwd: join(workspaceDir, 'packages', name), encoding: 'utf8', stdio: 'pipe' },
      );
      expect(output).toContain(`@switchboard/${name}@${versionOf(workspaceDir, name)}`);
    },
    180_000,
  );
});
