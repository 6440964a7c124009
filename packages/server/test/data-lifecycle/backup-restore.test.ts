import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimServerLock } from '../../src/server-lock';
import { checkIntegrity } from '../../src/store/sqlite/sqlite-backup';
import { createCustomerWithNumber, createInstance } from '../support/admin-helpers';
import { runEntry } from '../support/child-process';
import { cli } from '../support/cli-runner';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildSimulatorTestApp } from '../support/simulator-app';
import { bearer, buildTestApp, tempDir } from '../support/test-app';

describe('switchboard backup and restore (SQLite)', () => {
  it('copies a database being written to, and a server starts on the restored copy', async () => {
    const t = await buildSimulatorTestApp({ store: 'sqlite' });
    const instance = await createInstance(t.app);
    const { key } = await createCustomerWithNumber(t.app, 'Acme', '+14155550100', instance.id);
    const send = async (n: number) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: bearer(key),
        payload: { to: '+14155550123', content: { text: `message ${n}` } },
      });
      return expectSuccess<{ id: string }>(response, 202).id;
    };
    const before: string[] = [];
    for (let n = 0; n < 20; n += 1) before.push(await send(n));
    // Sends keep arriving while the backup runs.
    let sending = true;
    const during = (async () => {
      const ids: string[] = [];
      for (let n = 100; sending; n += 1) ids.push(await send(n));
      return ids;
    })();
    const backupDir = tempDir();
    const file = join(backupDir, 'backup.db');
    // The CLI in a process of its own, as an operator runs it beside the server.
    const backup = await runEntry('src/cli.ts', ['--json', 'backup', file], {
      DATABASE_URL: t.databasePath,
    });
    sending = false;
    expect(backup.stderr).not.toContain('rror');
    expect(backup.code).toBe(0);
    const result = JSON.parse(backup.stdout) as { messages: number; keyFile: string };
    expect(result.messages).toBeGreaterThanOrEqual(before.length);
    expect(existsSync(result.keyFile)).toBe(true);
    expect((await during).length).toBeGreaterThan(0);
    expect(checkIntegrity(file)).toBe('ok');

    // A copy goes back in place of another deployment's database (its key with it).
    const restoredDir = tempDir();
    const restoredPath = join(restoredDir, 'switchboard.db');
    const restore = await cli(['restore', file], { DATABASE_URL: restoredPath }, undefined, true);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(checkIntegrity(restoredPath)).toBe('ok');
    const restored = await buildTestApp({ dir: restoredDir, store: 'sqlite' });
    for (const id of before) {
      const message = expectSuccess<{ id: string }>(
        await restored.app.inject({
          method: 'GET',
          url: `/v1/messages/${id}`,
          headers: bearer(key),
        }),
      );
      expect(message.id).toBe(id);
    }
    expectSuccess(
      await restored.app.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: bearer(key),
        payload: { to: '+14155550123', content: { text: 'after the restore' } },
      }),
      202,
    );
    await restored.close();
  }, 120_000);

  it('refuses to restore over a database a running server holds, or an existing one without --force', async () => {
    const t = await buildTestApp({ store: 'sqlite' });
    const dir = tempDir();
    const file = join(dir, 'backup.db');
    expect(
      (await cli(['backup', file], { DATABASE_URL: t.databasePath }, undefined, true)).code,
    ).toBe(0);
    const refused = await cli(['restore', file], { DATABASE_URL: t.databasePath }, undefined, true);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--force');
    // A live process (this test's, as a server would) holds the server lock.
    const lock = claimServerLock(t.databasePath);
    const held = await cli(
      ['restore', '--force', file],
      { DATABASE_URL: t.databasePath },
      undefined,
      true,
    ).finally(() => lock.release());
    expect(held.code).toBe(1);
    expect(held.stderr).toContain('refusing to restore: another Switchboard server');
    const again = await cli(['backup', file], { DATABASE_URL: t.databasePath }, undefined, true);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists');
    expectFailure(
      await t.app.inject({ method: 'GET', url: '/v1/messages', headers: bearer('sk_nope') }),
      401,
      'UNAUTHORIZED',
    );
  });
});
