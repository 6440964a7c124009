import type { Instance } from '@switchboard/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildSimulatorTestApp } from '../support/simulator-app';

const PROXY = {
  proxyUrl: 'socks5://proxy.example.com:1080',
  proxyUsername: 'wa-line-1',
  proxyPassword: 'proxy-secret-9876',
};

function create(app: FastifyInstance, config: object) {
  return app.inject({
    method: 'POST',
    url: '/admin/v1/instances',
    headers: adminHeaders,
    payload: { name: 'wa', provider: 'baileys', enabled: false, config },
  });
}

describe('the proxy of a baileys instance in the operator API', () => {
  it('stores the proxy password as a secret, answers it masked, and keeps it when sent back masked', async () => {
    const { app } = await buildSimulatorTestApp();
    const created = expectSuccess<Instance>(await create(app, PROXY), 201);
    expect(created.config).toMatchObject({ ...PROXY, proxyPassword: '****9876' });
    const patched = expectSuccess<Instance>(
      await app.inject({
        method: 'PATCH',
        url: `/admin/v1/instances/${created.id}`,
        headers: adminHeaders,
        payload: { config: { ...created.config, proxyUrl: 'http://proxy.example.com:3128' } },
      }),
    );
    expect(patched.config).toMatchObject({ proxyUrl: 'http://proxy.example.com:3128' });
    const stored = await app.store.instances.findById(created.id);
    expect(stored?.config.proxyPassword).toBe(PROXY.proxyPassword);
  });

  it('refuses a proxy URL of another scheme, credentials inside the URL, and a password alone', async () => {
    const { app } = await buildSimulatorTestApp();
    const cases: Array<[object, RegExp]> = [
      [{ proxyUrl: 'ftp://proxy.example.com:21' }, /config\.proxyUrl.*socks5/],
      [{ proxyUrl: 'http://user:pw@proxy.example.com:3128' }, /config\.proxyUrl.*proxyPassword/],
      [{ proxyUrl: PROXY.proxyUrl, proxyPassword: 'x' }, /config\.proxyPassword/],
      [{ proxyUsername: 'u' }, /config\.proxyUsername/],
    ];
    for (const [config, message] of cases) {
      const body = expectFailure(await create(app, config), 400, 'VALIDATION_ERROR');
      expect(body.error.message, JSON.stringify(config)).toMatch(message);
    }
  });
});
