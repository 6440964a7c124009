import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attw,
  type ConsumerProject,
  createConsumerProject,
  type PackedPackage,
} from './consumer-project';
import { cjsConsumer, contractConsumer, esmConsumer, node10Consumer } from './consumer-sources';

// Packs each published package exactly as it would be published, installs its tarball alone in a
// project outside the workspace, then lints it and type-checks and runs a consumer under each
// resolution mode.

/** The checks every published package passes, on its installed copy. */
function packageChecks(packed: PackedPackage, project: () => ConsumerProject) {
  const name = `@switchboard/${packed}`;
  it('passes publint (strict)', async () => {
    // The installed copy holds exactly the files of the tarball.
    const { messages, pkg } = await publint({
      pkgDir: join(project().dir, 'node_modules', name),
      pack: false,
      strict: true,
    });
    expect(messages.map((message) => formatMessage(message, pkg, { color: false }))).toEqual([]);
  });

  it('ships the MIT LICENSE its package.json names', () => {
    const installed = join(project().dir, 'node_modules', name);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      license: string;
    };
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it('passes @arethetypeswrong/cli', () => {
    // Exits non-zero, with the problem table in the error, on any problem in any resolution mode.
    project().run(process.execPath, [attw, project().tarball, '--format', 'ascii']);
  });
}

describe('the packed SDK, installed alone', () => {
  let project: ConsumerProject;
  beforeAll(async () => {
    project = await createConsumerProject('sdk');
  }, 300_000);
  afterAll(() => project?.remove());

  packageChecks('sdk', () => project);

  it('brings one runtime dependency and nothing else', () => {
    expect(project.installedPackages()).toEqual(['@switchboard/sdk', 'eventsource-parser']);
  });

  it('type-checks (its declarations too) and runs as ESM under nodenext', () => {
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

  it('type-checks and runs as CommonJS (require) under node16', () => {
    project.write('cjs.cts', cjsConsumer);
    project.typeCheck('cjs', { module: 'node16', moduleResolution: 'node16' }, ['cjs.cts']);
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

  it.each([
    ['@switchboard/sdk', 'Switchboard'],
    ['@switchboard/sdk/webhooks', 'verifyWebhook'],
  ])('bundles %s for a neutral platform: no Node built-in', async (entry, exported) => {
    // `neutral` resolves no Node built-in: an import of one fails the build. What Workers, Deno
    // and browsers load is this bundle.
    const result = await build({
      stdin: { contents: `export { ${exported} } from '${entry}';`, resolveDir: project.dir },
      bundle: true,
      platform: 'neutral',
      format: 'esm',
      mainFields: ['module', 'main'],
      write: false,
      logLevel: 'silent',
    });
    const text = result.outputFiles.map((file) => file.text).join('');
    expect(text).toContain(exported);
    expect(text).not.toMatch(/\brequire\(|from ["']node:|process\.versions|Buffer\./);
  });
});

describe('the packed contract, installed alone', () => {
  let project: ConsumerProject;
  beforeAll(async () => {
    project = await createConsumerProject('contract');
  }, 300_000);
  afterAll(() => project?.remove());

  packageChecks('contract', () => project);

  it('type-checks and runs as ESM under node16', () => {
    project.write('contract.mts', contractConsumer);
    project.typeCheck(
      'contract',
      // zod's and ts-rest's own declarations are not this package's to check.
      { module: 'node16', moduleResolution: 'node16', skipLibCheck: true },
      ['contract.mts'],
    );
    const output = JSON.parse(project.run(process.execPath, ['out-contract/contract.mjs']));
    expect(output).toEqual({ send: 'POST /v1/messages', valid: true, invalid: 'VALIDATION_ERROR' });
  });

  it('loads as CommonJS (require)', () => {
    const output = project.run(process.execPath, [
      '-e',
      "const { contract, isErrorCode } = require('@switchboard/contract'); console.log(JSON.stringify([contract.messages.get.path, isErrorCode('NOT_FOUND')]));",
    ]);
    expect(JSON.parse(output)).toEqual(['/v1/messages/:id', true]);
  });

  it('type-checks under bundler resolution', () => {
    project.write('contract-bundler.ts', contractConsumer);
    project.typeCheck(
      'contract-bundler',
      { module: 'esnext', moduleResolution: 'bundler', noEmit: true, skipLibCheck: true },
      ['contract-bundler.ts'],
    );
  });
});
