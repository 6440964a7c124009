import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installPacked, type PackedProject } from '@switchboard/testing';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The adapter as it would be published: packed (its prepack builds it with declarations) and
// installed alone in an empty project, Baileys coming from the registry.
const packageDir = join(import.meta.dirname, '..');
const workspaceDir = join(packageDir, '..', '..');
let project: PackedProject;

beforeAll(async () => {
  project = await installPacked({ packageDir, workspaceDir });
}, 600_000);
afterAll(() => project?.remove());

const installedDir = () => join(project.dir, 'node_modules', '@switchboard', 'provider-baileys');

describe('the packed Baileys adapter, installed alone', () => {
  it('ships its build and licence, no tests and no workspace package, and passes publint', async () => {
    const files = project.run('tar', ['-tzf', project.tarball]).trim().split('\n').sort();
    expect(files).toEqual([
      'package/LICENSE',
      'package/dist/index.d.ts',
      'package/dist/index.js',
      'package/dist/index.js.map',
      'package/package.json',
    ]);
    const installed = project.installedPackages();
    expect(installed).toContain('baileys');
    expect(installed).toContain('libsignal');
    expect(installed.filter((name) => name.startsWith('@switchboard/'))).toEqual([
      '@switchboard/provider-baileys',
    ]);
    const manifest = readFileSync(join(installedDir(), 'package.json'), 'utf8');
    expect(manifest).not.toContain('workspace:');
    expect(manifest).not.toContain('fake-socket');
    const { messages, pkg } = await publint({ pkgDir: installedDir(), pack: false });
    expect(messages.map((message) => formatMessage(message, pkg, { color: false }))).toEqual([]);
  });

  it('imports in Node and builds an instance, Baileys loaded from its own package', () => {
    project.write(
      'check.mjs',
      [
        "import { createBaileysProvider } from '@switchboard/provider-baileys';",
        "const provider = createBaileysProvider({ name: 'wa', config: {} });",
        'console.log(JSON.stringify([provider.provider, provider.channels, typeof provider.whatsappSessions.enable]));',
      ].join('\n'),
    );
    expect(JSON.parse(project.run('node', ['check.mjs']))).toEqual([
      'baileys',
      ['whatsapp'],
      'function',
    ]);
    const bundle = readFileSync(join(installedDir(), 'dist', 'index.js'), 'utf8');
    expect(bundle).toMatch(/from "baileys"/);
    expect(bundle).not.toContain('libsignal');
  });
});
