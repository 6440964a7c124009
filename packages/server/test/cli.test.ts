import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { completion, PACKAGE_ROOT, runEntry } from './support/child-process';
import { cli } from './support/cli-runner';
import { expectSuccess } from './support/envelope-assertions';
import { bearer, buildTestApp, tempDir } from './support/test-app';

describe('switchboard quickstart', () => {
  it('prints its version, and help for every command', async () => {
    const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const printed = await cli(['--version'], {}, undefined, true);
    expect(printed).toEqual({ code: 0, stdout: `${version.version}\n`, stderr: '' });
    for (const command of [[], ['serve'], ['customers'], ['instances', 'create'], ['secrets']]) {
      const help = await cli([...command, '--help'], {}, undefined, true);
      expect(help.code, command.join(' ')).toBe(0);
      expect(help.stdout, command.join(' ')).toMatch(/^Usage: switchboard/);
    }
  });

  it('seeds an empty database and prints a key that works, once', async () => {
    const dir = tempDir();
    const env = {
      DATABASE_URL: join(dir, 'switchboard.db'),
      PUBLIC_BASE_URL: 'http://localhost:4000',
    };

    const first = await runEntry('src/cli.ts', ['--create-database', 'quickstart'], env);
    expect(first.code, first.stderr).toBe(0);
    const key = /\b(sk_[0-9A-Za-z]{43})\b/.exec(first.stdout)?.[1];
    expect(key).toBeDefined();
    expect(first.stdout).toContain('curl -X POST http://localhost:4000/v1/messages');
    expect(first.stdout).toContain(`-H "Authorization: Bearer ${key}"`);
    expect(first.stdout).toContain('+14155550100 (default), +14155550101');

    const second = await runEntry('src/cli.ts', ['--create-database', 'quickstart'], env);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('Quickstart only seeds an empty database');
    expect(second.stdout).not.toMatch(/sk_/);

    const { app } = await buildTestApp({ dir, store: 'sqlite' });
    const numbers = expectSuccess(
      await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key ?? '') }),
    );
    expect(numbers).toEqual([
      {
        phoneNumber: '+14155550100',
        email: null,
        instanceName: 'simulator',
        isDefault: true,
        // The first health check runs at start: it may or may not have finished yet.
        healthStatus: expect.stringMatching(/^(unknown|healthy)$/),
      },
      {
        phoneNumber: '+14155550101',
        email: null,
        instanceName: 'simulator',
        isDefault: false,
        // The first health check runs at start: it may or may not have finished yet.
        healthStatus: expect.stringMatching(/^(unknown|healthy)$/),
      },
    ]);
    const instances = await app.services.instances.list();
    expect(instances.map((i) => [i.name, i.provider, i.channels])).toEqual([
      ['simulator', 'simulator', ['imessage', 'sms', 'whatsapp']],
    ]);
  });

  it('prints JSON with --json, the curl line on the server’s own port, to a contact', async () => {
    const env = { DATABASE_URL: join(tempDir(), 'switchboard.db'), PORT: '4321' };
    const result = await cli(['quickstart', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.apiKey.key).toMatch(/^sk_/);
    expect(output.customer.name).toBe('Demo customer');
    expect(output.numbers).toHaveLength(2);
    expect(output.curl).toContain(output.apiKey.key);
    expect(output.curl).toContain('curl -X POST http://127.0.0.1:4321/v1/messages');
    const to = /"to":"(\+\d+)"/.exec(output.curl)?.[1];
    expect(to).toBeDefined();
    const senders = output.numbers.map((n: { phoneNumber: string }) => n.phoneNumber);
    expect(senders).not.toContain(to);
  });
});

describe('the operator commands', () => {
  it('manage customers, keys, instances and numbers on the database', async () => {
    const env = { DATABASE_URL: join(tempDir(), 'switchboard.db') };
    const json = async (args: string[]) => {
      const result = await cli(['--json', ...args], env);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout);
    };

    const customer = await json([
      'customers',
      'create',
      '--name',
      'Acme',
      '--otp-handling',
      'annotate',
    ]);
    expect(customer.settings).toEqual({ otpHandling: 'annotate', optOutHandling: 'gateway' });
    const instance = await json([
      'instances',
      'create',
      '--name',
      'sim',
      '--provider',
      'simulator',
    ]);
    expect(instance.channels).toEqual(['imessage', 'sms', 'whatsapp']);
    const number = await json([
      'numbers',
      'assign',
      customer.id,
      '--phone',
      '+14155550100',
      '--instance',
      'sim',
      '--default',
    ]);
    expect(number).toMatchObject({
      phoneNumber: '+14155550100',
      instanceId: instance.id,
      isDefault: true,
    });
    const key = await json(['api-keys', 'create', customer.id, '--name', 'ci']);
    expect(key.key).toMatch(/^sk_/);
    const { key: _plaintext, ...listed } = key;
    expect(await json(['api-keys', 'list', customer.id])).toEqual([listed]);
    expect((await json(['api-keys', 'revoke', key.id])).revokedAt).not.toBeNull();
    expect(await json(['numbers', 'list', customer.id])).toHaveLength(1);
    expect(await json(['numbers', 'remove', customer.id, '14155550100'])).toEqual({
      phoneNumber: '+14155550100',
      deleted: true,
    });
    expect(await json(['customers', 'list'])).toHaveLength(1);
    expect(await json(['customers', 'delete', customer.id])).toEqual({
      id: customer.id,
      deleted: true,
    });

    const table = await cli(['instances', 'list'], env);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+PROVIDER\s+CHANNELS\s+ENABLED\s+HEALTH\n/);
    expect(table.stdout).toContain('imessage,sms,whatsapp');
  });

  it('reports invalid input and refused operations with exit code 1', async () => {
    const env = { DATABASE_URL: join(tempDir(), 'switchboard.db') };
    const badPhone = await cli(
      ['numbers', 'assign', 'x', '--phone', '555', '--instance', 'nope'],
      env,
    );
    expect(badPhone.code).toBe(1);
    expect(badPhone.stderr).toContain('instance: no instance "nope"');
    const missingOption = await cli(['customers', 'create'], env);
    expect(missingOption.code).toBe(1);
    expect(missingOption.stderr).toContain("required option '--name <name>'");
    const unknownCustomer = await cli(
      ['api-keys', 'list', '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f'],
      env,
    );
    expect(unknownCustomer.code).toBe(1);
    expect(unknownCustomer.stderr).toContain('error: NOT_FOUND: ');
    const badConfig = await cli(['customers', 'list'], { ...env, RATE_LIMIT_PER_MINUTE: 'lots' });
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toContain('RATE_LIMIT_PER_MINUTE');
  });
});

describe('switchboard instances', () => {
  const AUTH_TOKEN = 'cli-twilio-auth-token-0123456789abcdef';

  it('reads secrets from the environment, a file or a prompt, never from --config', async () => {
    const dir = tempDir();
    const env = { DATABASE_URL: join(dir, 'switchboard.db'), TW_TOKEN: AUTH_TOKEN };
    const config = JSON.stringify({ accountSid: `AC${'2'.repeat(32)}` });
    const base = ['--json', 'instances', 'create', '--provider', 'twilio', '--disabled'];

    const inline = await cli(
      [
        ...base,
        '--name',
        'tw0',
        '--config',
        JSON.stringify({ accountSid: `AC${'2'.repeat(32)}`, authToken: AUTH_TOKEN }),
      ],
      env,
    );
    expect(inline.code).toBe(1);
    expect(inline.stderr).toContain(
      'authToken is a secret; pass it with --secret authToken=env:NAME',
    );

    const fromEnv = await cli(
      [...base, '--name', 'tw1', '--config', config, '--secret', 'authToken=env:TW_TOKEN'],
      env,
    );
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    const created = JSON.parse(fromEnv.stdout);
    expect(created.config).toEqual({ accountSid: `AC${'2'.repeat(32)}`, authToken: '****cdef' });
    expect(created.ingressUrl).toMatch(/\/providers\/[0-9a-f-]{36}\/webhook\/ingr_/);
    expect(fromEnv.stdout).not.toContain(AUTH_TOKEN);

    const file = join(dir, 'token.txt');
    writeFileSync(file, `${AUTH_TOKEN}\n`);
    const fromFile = await cli(
      [...base, '--name', 'tw2', '--config', config, '--secret', `authToken=file:${file}`],
      env,
    );
    expect(fromFile.code, fromFile.stderr).toBe(0);

    const prompted = await cli(
      [...base, '--name', 'tw3', '--config', config, '--secret', 'authToken=prompt'],
      env,
      Readable.from([`${AUTH_TOKEN}\n`]),
    );
    expect(prompted.code, prompted.stderr).toBe(0);
    expect(JSON.parse(prompted.stdout).config.authToken).toBe('****cdef');

    const missing = await cli(
      [...base, '--name', 'tw4', '--config', config, '--secret', 'authToken=env:NOPE'],
      env,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--secret authToken: env:NOPE gave no value');

    const { app } = await buildTestApp({ dir, store: 'sqlite' });
    for (const name of ['tw1', 'tw2', 'tw3']) {
      expect((await app.store.instances.findByName(name))?.config.authToken).toBe(AUTH_TOKEN);
    }
  });

  it('gets, updates, disables, enables, rotates and deletes an instance', async () => {
    const env = { DATABASE_URL: join(tempDir(), 'switchboard.db') };
    const json = async (args: string[]) => {
      const result = await cli(['--json', ...args], env);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout);
    };
    const created = await json([
      'instances',
      'create',
      '--name',
      'sim',
      '--provider',
      'simulator',
      '--channels',
      'sms',
    ]);
    expect(created.channels).toEqual(['sms']);
    expect((await json(['instances', 'get', 'sim'])).id).toBe(created.id);
    const updated = await json([
      'instances',
      'update',
      'sim',
      '--config',
      '{"stepMs":5}',
      '--name',
      'sim2',
    ]);
    expect(updated).toMatchObject({ name: 'sim2', config: { stepMs: 5 } });
    expect((await json(['instances', 'disable', 'sim2'])).enabled).toBe(false);
    expect((await json(['instances', 'enable', created.id])).enabled).toBe(true);
    const rotated = await json(['instances', 'rotate-ingress-token', 'sim2']);
    expect(rotated.ingressUrl).not.toBe(created.ingressUrl);
    const bad = await cli(['instances', 'update', 'sim2', '--config', '{"stepMs":-4}'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('VALIDATION_ERROR: config.stepMs');
    expect(await json(['instances', 'delete', 'sim2'])).toEqual({
      id: created.id,
      deleted: true,
      releasedNumbers: [],
    });
    expect(await json(['instances', 'list'])).toEqual([]);
  });
});

describe('the CLI and its database', () => {
  const ROOT = join(PACKAGE_ROOT, '..', '..');
  const run = (command: string, args: string[], env: Record<string, string>) =>
    completion(
      spawn(command, args, {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );

  it('refuses to create a database it was not asked to, names the one it opens, and prints clean JSON', async () => {
    const databasePath = join(tempDir(), 'nested', 'switchboard.db');
    const env = { DATABASE_URL: databasePath };
    const refused = await run('./switchboard', ['customers', 'list', '--json'], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`No database at ${databasePath}.`);
    expect(refused.stderr).toContain('--create-database');
    expect(existsSync(databasePath)).toBe(false);

    const created = await run('./switchboard', ['migrate'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toBe(`Database: ${databasePath}\n`);
    expect(existsSync(databasePath)).toBe(true);

    // The root script and `pnpm -s` leave stdout to the command: it parses as JSON as it is.
    const viaScript = await run(
      './switchboard',
      ['customers', 'create', '--name', 'Acme', '--json'],
      env,
    );
    expect(viaScript.code, viaScript.stderr).toBe(0);
    expect(JSON.parse(viaScript.stdout)).toMatchObject({ name: 'Acme' });
    expect(viaScript.stderr).toBe(`Database: ${databasePath}\n`);
    const viaPnpm = await run('pnpm', ['-s', 'switchboard', 'customers', 'list', '--json'], env);
    expect(viaPnpm.code, viaPnpm.stderr).toBe(0);
    expect(JSON.parse(viaPnpm.stdout)).toEqual([expect.objectContaining({ name: 'Acme' })]);
  });
});
