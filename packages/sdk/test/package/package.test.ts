import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attw,
  type ConsumerProject,
  createConsumerProject,
  type PackedPackage,
} from './consumer-project';
import { cjsConsumer, esmConsumer, node10Consumer } from './consumer-sources';

// Packs the contract and the SDK exactly as they would be published, installs the tarballs in a
// project outside the workspace, then lints them and type-checks and runs a consumer under each
// resolution mode.
let project: ConsumerProject;

beforeAll(async () => {
  project = await createConsumerProject();
}, 300_000);

afterAll(() => project?.remove());

const packages: readonly [PackedPackage, string][] = [
  ['contract', '@switchboard/contract'],
  ['sdk', '@switchboard/sdk'],
];

describe('the packed SDK in a fresh project', () => {
  it.each(packages)('%s passes publint (strict)', async (_, name) => {
    // The installed copy holds exactly the files of the tarball.
    const { messages, pkg } = await publint({
      pkgDir: join(project.dir, 'node_modules', name),
      pack: false,
      strict: true,
    });
    expect(messages.map((message) => formatMessage(message, pkg, { color: false }))).toEqual([]);
  });

  it.each(packages)('%s ships the MIT LICENSE its package.json names', (_, name) => {
    const installed = join(project.dir, 'node_modules', name);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      license: string;
    };
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it.each(packages)('%s passes @arethetypeswrong/cli', (key) => {
    // Exits non-zero, with the problem table in the error, on any problem in any resolution mode.
    project.run(process.execPath, [attw, project.tarballs[key], '--format', 'ascii']);
  });

  it('type-checks and runs as ESM under nodenext', () => {
    project.write('esm.mts', esmConsumer);
    project.typeCheck('nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, [
      'esm.mts',
    ]);
    const output = JSON.parse(project.run(process.execPath, ['out-nodenext/esm.mjs']));
    expect(output).toEqual({
      type: 'webhook.test',
      base: 'http://127.0.0.1:1',
      to: '+14155550100',
      errors: true,
    });
  });

  it('type-checks and runs as CommonJS (require) under nodenext', () => {
    project.write('cjs.cts', cjsConsumer);
    project.typeCheck('cjs', { module: 'nodenext', moduleResolution: 'nodenext' }, ['cjs.cts']);
    const output = JSON.parse(project.run(process.execPath, ['out-cjs/cjs.cjs']));
    expect(output).toEqual({ base: 'http://127.0.0.1:1', status: 429, verify: 'function' });
  });

  it('type-checks under bundler resolution with the strictest options', () => {
    project.write('bundler.ts', esmConsumer);
    project.typeCheck(
      'bundler',
      {
        module: 'esnext',
        moduleResolution: 'bundler',
        noEmit: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
      },
      ['bundler.ts'],
    );
  });

  it('type-checks under node10 (CommonJS) resolution', () => {
    project.write('legacy.ts', node10Consumer);
    project.typeCheck(
      'node10',
      { module: 'commonjs', moduleResolution: 'node10', noEmit: true, esModuleInterop: true },
      ['legacy.ts'],
    );
  });
});
