import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Packs the contract and the SDK exactly as they would be published, installs the tarballs in a
// project outside the workspace, then type-checks and runs a consumer under each resolution mode.
const sdkDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const contractDir = resolve(sdkDir, '../contract');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
let project: string;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe' });
}

function pack(dir: string): string {
  run('pnpm', ['exec', 'tsup'], dir);
  const before = new Set(readdirSync(project));
  run('pnpm', ['pack', '--pack-destination', project], dir);
  const tarball = readdirSync(project).find((file) => file.endsWith('.tgz') && !before.has(file));
  if (!tarball) throw new Error(`pnpm pack produced no tarball in ${dir}`);
  return `file:./${tarball}`;
}

const consumer = {
  esm: `import { Switchboard, SwitchboardError, NotFoundError, type MessageSendParams } from '@switchboard/sdk';
import { signWebhookPayload, verifyWebhook, type WebhookEvent } from '@switchboard/sdk/webhooks';
const client = new Switchboard({ apiKey: 'sk_test', baseUrl: 'http://127.0.0.1:1' });
const params: MessageSendParams = { to: '+14155550100', content: { text: 'hi' } };
const body = JSON.stringify({ id: 'evt_test_1', type: 'webhook.test', timestamp: new Date().toISOString(), data: { message: 'hi', webhookId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f' } });
const headers = await signWebhookPayload({ payload: body, secret: 'a-secret-of-16-chars' });
const event: WebhookEvent = await verifyWebhook({ payload: body, headers, secret: 'a-secret-of-16-chars' });
console.log(JSON.stringify({ type: event.type, base: client.baseUrl, to: params.to, errors: new NotFoundError('x') instanceof SwitchboardError }));
`,
};

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'switchboard-sdk-consumer-'));
  const contract = pack(contractDir);
  const sdk = pack(sdkDir);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'sdk-consumer',
      private: true,
      type: 'module',
      dependencies: { '@switchboard/sdk': sdk, '@switchboard/contract': contract },
      // The SDK depends on the contract's version; point that at the local tarball too.
      pnpm: { overrides: { '@switchboard/contract': contract } },
    }),
  );
  run('pnpm', ['install', '--prefer-offline', '--config.confirmModulesPurge=false'], project);
}, 600_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

function writeConfig(name: string, options: Record<string, unknown>, files: string[]): string {
  const config = join(project, `tsconfig.${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        types: [],
        skipLibCheck: true,
        outDir: `out-${name}`,
        ...options,
      },
      files,
    }),
  );
  return config;
}

describe('the packed SDK in a fresh project', () => {
  it('type-checks and runs as ESM under nodenext', () => {
    writeFileSync(join(project, 'esm.mts'), consumer.esm);
    const config = writeConfig('nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, [
      'esm.mts',
    ]);
    run(process.execPath, [tsc, '-p', config], project);
    const output = JSON.parse(run(process.execPath, ['out-nodenext/esm.mjs'], project));
    expect(output).toEqual({
      type: 'webhook.test',
      base: 'http://127.0.0.1:1',
      to: '+14155550100',
      errors: true,
    });
  });

  it('type-checks and runs as CommonJS (require) under nodenext', () => {
    writeFileSync(
      join(project, 'cjs.cts'),
      `import sdk = require('@switchboard/sdk');
import webhooks = require('@switchboard/sdk/webhooks');
const client = new sdk.Switchboard({ apiKey: 'sk_test', baseUrl: 'http://127.0.0.1:1' });
const error: sdk.SwitchboardError = new sdk.RateLimitError('slow', { status: 429, body: null, headers: new Headers(), code: 'RATE_LIMIT_EXCEEDED', requestId: undefined, retryAfter: 1 });
console.log(JSON.stringify({ base: client.baseUrl, status: error.status, verify: typeof webhooks.verifyWebhook }));
`,
    );
    const config = writeConfig('cjs', { module: 'nodenext', moduleResolution: 'nodenext' }, [
      'cjs.cts',
    ]);
    run(process.execPath, [tsc, '-p', config], project);
    const output = JSON.parse(run(process.execPath, ['out-cjs/cjs.cjs'], project));
    expect(output).toEqual({ base: 'http://127.0.0.1:1', status: 429, verify: 'function' });
  });

  it('type-checks under bundler resolution', () => {
    writeFileSync(join(project, 'bundler.ts'), consumer.esm);
    const config = writeConfig(
      'bundler',
      { module: 'esnext', moduleResolution: 'bundler', noEmit: true },
      ['bundler.ts'],
    );
    run(process.execPath, [tsc, '-p', config], project);
  });

  it('type-checks under node10 (CommonJS) resolution', () => {
    writeFileSync(
      join(project, 'legacy.ts'),
      `import { Switchboard } from '@switchboard/sdk';
import { verifyWebhook } from '@switchboard/sdk/webhooks';
export const client = new Switchboard({ apiKey: 'sk_test' });
export const verify = verifyWebhook;
`,
    );
    const config = writeConfig(
      'node10',
      { module: 'commonjs', moduleResolution: 'node10', noEmit: true, esModuleInterop: true },
      ['legacy.ts'],
    );
    run(process.execPath, [tsc, '-p', config], project);
  });
});
