import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli';
import { runEntry } from './support/child-process';
import { expectSuccess } from './support/envelope-assertions';
import { bearer, buildTestApp, tempDir } from './support/test-app';

/** Runs the CLI in-process and captures its output. */
async function cli(args: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

describe('switchboard quickstart', () => {
  it('seeds an empty database and prints a key that works, once', async () => {
    const dir = tempDir();
    const env = {
      DATABASE_URL: join(dir, 'switchboard.db'),
      PUBLIC_BASE_URL: 'http://localhost:4000',
    };

    const first = await runEntry('src/cli.ts', ['quickstart'], env);
    expect(first.code, first.stderr).toBe(0);
    const key = /\b(sk_[0-9A-Za-z]{43})\b/.exec(first.stdout)?.[1];
    expect(key).toBeDefined();
    expect(first.stdout).toContain('curl -X POST http://localhost:4000/v1/messages');
    expect(first.stdout).toContain(`-H "Authorization: Bearer ${key}"`);
    expect(first.stdout).toContain('+14155550100 (default), +14155550101');

    const second = await runEntry('src/cli.ts', ['quickstart'], env);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('Quickstart only seeds an empty database');
    expect(second.stdout).not.toMatch(/sk_/);

    const { app } = await buildTestApp({ dir });
    const numbers = expectSuccess(
      await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key ?? '') }),
    );
    expect(numbers).toEqual([
      {
        phoneNumber: '+14155550100',
        email: null,
        instanceName: 'simulator',
        isDefault: true,
        healthStatus: 'unknown',
      },
      {
        phoneNumber: '+14155550101',
        email: null,
        instanceName: 'simulator',
        isDefault: false,
        healthStatus: 'unknown',
      },
    ]);
    const instances = await app.services.instances.list();
    expect(instances.map((i) => [i.name, i.provider, i.channels])).toEqual([
      ['simulator', 'simulator', ['imessage', 'sms', 'whatsapp']],
    ]);
  });

  it('prints JSON with --json', async () => {
    const env = { DATABASE_URL: join(tempDir(), 'switchboard.db') };
    const result = await cli(['quickstart', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.apiKey.key).toMatch(/^sk_/);
    expect(output.customer.name).toBe('Demo customer');
    expect(output.numbers).toHaveLength(2);
    expect(output.curl).toContain(output.apiKey.key);
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
    expect(customer.settings).toEqual({ otpHandling: 'annotate' });
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
    expect(table.stdout).toMatch(/^ID\s+NAME\s+PROVIDER\s+CHANNELS\s+HEALTH\n/);
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
