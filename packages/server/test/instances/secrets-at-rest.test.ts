import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Instance } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import {
  createOrm,
  findMigrationsFolder,
  migrateSqlite,
  openSqlite,
} from '../../src/store/sqlite/connection';
import { adminHeaders, createCustomerWithKey } from '../support/admin-helpers';
import { cli } from '../support/cli-runner';
import { expectSuccess } from '../support/envelope-assertions';
import { buildSimulatorTestApp } from '../support/simulator-app';
import { bearer, tempDir } from '../support/test-app';

const AUTH_TOKEN = 'twilio-auth-token-in-clear-0123456789';
const INGRESS_SECRET = 'simulator-ingress-secret-9876543210';
const WEBHOOK_SECRET = 'whsec_webhook-secret-in-clear-abcdefgh';
const STATE_VALUE = 'signal-session-key-in-clear-zyxwvut';

/** Every byte the database keeps on disk: the file and its WAL, if any. */
function databaseBytes(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.startsWith('switchboard.db') && !name.endsWith('.key'))
    .map((name) => readFileSync(join(dir, name)).toString('latin1'))
    .join('');
}

/** Stores one secret of every kind through the public surface (and the provider state port). */
async function storeSecrets(dir: string) {
  const t = await buildSimulatorTestApp({ dir, store: 'sqlite' });
  const twilio = expectSuccess<Instance>(
    await t.app.inject({
      method: 'POST',
      url: '/admin/v1/instances',
      headers: adminHeaders,
      payload: {
        name: 'tw',
        provider: 'twilio',
        enabled: false,
        config: { accountSid: `AC${'1'.repeat(32)}`, authToken: AUTH_TOKEN },
      },
    }),
    201,
  );
  const sim = expectSuccess<Instance>(
    await t.app.inject({
      method: 'POST',
      url: '/admin/v1/instances',
      headers: adminHeaders,
      payload: { name: 'sim', provider: 'simulator', config: { ingressSecret: INGRESS_SECRET } },
    }),
    201,
  );
  const { key } = await createCustomerWithKey(t.app);
  expectSuccess(
    await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(key),
      payload: { url: 'https://hooks.example.com/in', events: ['*'], secret: WEBHOOK_SECRET },
    }),
    201,
  );
  await t.app.store.providerState.set(sim.id, 'creds', STATE_VALUE);
  const ingressToken = new URL(sim.ingressUrl).pathname.split('/').pop() ?? '';
  await t.close();
  return { twilio, sim, key, ingressToken };
}

describe('secrets at rest', () => {
  it('keeps no secret in clear in the database files, and a 0600 key file beside them', async () => {
    const dir = tempDir();
    const { ingressToken } = await storeSecrets(dir);
    const bytes = databaseBytes(dir);
    for (const secret of [AUTH_TOKEN, INGRESS_SECRET, WEBHOOK_SECRET, STATE_VALUE, ingressToken]) {
      expect(bytes.includes(secret), secret).toBe(false);
    }
    expect(bytes).toContain('enc:v1:');
    const keyFile = join(dir, 'switchboard.db.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    // Everything reads back through the API after a restart.
    const again = await buildSimulatorTestApp({ dir, store: 'sqlite' });
    const stored = await again.app.store.instances.findByName('tw');
    expect(stored?.config.authToken).toBe(AUTH_TOKEN);
    expect((await again.app.store.instances.findByName('sim'))?.ingressToken).toBe(ingressToken);
  });

  it('encrypts rows written before encryption existed when the store opens', async () => {
    const dir = tempDir();
    const path = join(dir, 'switchboard.db');
    const sqlite = openSqlite(path);
    migrateSqlite(createOrm(sqlite), findMigrationsFolder());
    sqlite
      .prepare(
        "insert into instances (id, name, provider, channels, config, created_at) values ('0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f', 'old', 'simulator', '[\"sms\"]', ?, 0)",
      )
      .run(JSON.stringify({ ingressSecret: INGRESS_SECRET }));
    sqlite.close();
    expect(databaseBytes(dir)).toContain(INGRESS_SECRET);

    const t = await buildSimulatorTestApp({ dir, store: 'sqlite' });
    const listed = expectSuccess<Instance[]>(
      await t.app.inject({ method: 'GET', url: '/admin/v1/instances', headers: adminHeaders }),
    );
    expect(listed[0]?.config).toEqual({ ingressSecret: '****3210' });
    expect(listed[0]?.ingressUrl).toMatch(/\/webhook\/ingr_[\w-]{43}$/);
    await t.close();
    expect(databaseBytes(dir)).not.toContain(INGRESS_SECRET);
  });

  it('refuses to start with a key other than the database’s, saying which', async () => {
    const dir = tempDir();
    await storeSecrets(dir);
    const otherKey = Buffer.alloc(32, 7).toString('base64');
    await expect(
      buildSimulatorTestApp({
        dir,
        store: 'sqlite',
        env: { SWITCHBOARD_ENCRYPTION_KEY: otherKey },
      }),
    ).rejects.toThrow(/encrypted with key [0-9a-f]{8}, but the configured key is [0-9a-f]{8}/);
    const result = await cli(['instances', 'list'], {
      DATABASE_URL: join(dir, 'switchboard.db'),
      SWITCHBOARD_ENCRYPTION_KEY: otherKey,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SWITCHBOARD_ENCRYPTION_KEY');
    expect(result.stderr).not.toContain('    at ');
  });

  it('re-encrypts everything under a new key with `secrets rotate-key`', async () => {
    const dir = tempDir();
    const { key } = await storeSecrets(dir);
    const keyFile = join(dir, 'switchboard.db.key');
    const oldKey = readFileSync(keyFile, 'utf8').trim();
    const env = { DATABASE_URL: join(dir, 'switchboard.db') };

    const rotated = await cli(['--json', 'secrets', 'rotate-key'], env);
    expect(rotated.code, rotated.stderr).toBe(0);
    const output = JSON.parse(rotated.stdout) as { rewritten: number; keySource: string };
    expect(output.keySource).toBe('file');
    expect(output.rewritten).toBeGreaterThanOrEqual(6);
    expect(output).not.toHaveProperty('newKey');
    expect(readFileSync(keyFile, 'utf8').trim()).not.toBe(oldKey);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const t = await buildSimulatorTestApp({ dir, store: 'sqlite' });
    expect((await t.app.store.instances.findByName('tw'))?.config.authToken).toBe(AUTH_TOKEN);
    const hooks = expectSuccess<unknown[]>(
      await t.app.inject({ method: 'GET', url: '/v1/webhooks/list', headers: bearer(key) }),
    );
    expect(hooks).toHaveLength(1);
    await t.close();
    // The old key no longer opens it.
    await expect(
      buildSimulatorTestApp({ dir, store: 'sqlite', env: { SWITCHBOARD_ENCRYPTION_KEY: oldKey } }),
    ).rejects.toThrow(/configured key/);
  });

  it('with the key in SWITCHBOARD_ENCRYPTION_KEY, prints the new key once and writes no file', async () => {
    const dir = tempDir();
    const envKey = Buffer.alloc(32, 3).toString('base64');
    const env = { DATABASE_URL: join(dir, 'switchboard.db'), SWITCHBOARD_ENCRYPTION_KEY: envKey };
    expect((await cli(['instances', 'list'], env)).code).toBe(0);
    expect(existsSync(join(dir, 'switchboard.db.key'))).toBe(false);
    const rotated = await cli(['--json', 'secrets', 'rotate-key'], env);
    expect(rotated.code, rotated.stderr).toBe(0);
    const { newKey } = JSON.parse(rotated.stdout) as { newKey: string };
    expect(newKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(
      (await cli(['instances', 'list'], { ...env, SWITCHBOARD_ENCRYPTION_KEY: newKey })).code,
    ).toBe(0);
    expect((await cli(['instances', 'list'], env)).code).toBe(1);
  });

  it('cannot read a copy of the database made without its key file', async () => {
    const dir = tempDir();
    await storeSecrets(dir);
    const copy = tempDir();
    cpSync(join(dir, 'switchboard.db'), join(copy, 'switchboard.db'));
    // A fresh key file is made for the copy, and the key check at open refuses it.
    await expect(buildSimulatorTestApp({ dir: copy, store: 'sqlite' })).rejects.toThrow(
      /configured key/,
    );
    cpSync(join(dir, 'switchboard.db.key'), join(copy, 'switchboard.db.key'));
    const t = await buildSimulatorTestApp({ dir: copy, store: 'sqlite' });
    expect((await t.app.store.instances.findByName('tw'))?.config.authToken).toBe(AUTH_TOKEN);
  });
});
