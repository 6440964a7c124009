import type { Instance } from '@switchboard/contract';
import { FakeBlueBubbles, PRIVATE_API_ENABLED } from '@switchboard/testing/bluebubbles';
import { afterEach, describe, expect, it } from 'vitest';
import { adminHeaders, adminPost } from '../support/admin-helpers';
import { expectSuccess } from '../support/envelope-assertions';
import { buildListeningApp } from '../support/listening-app';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

describe('the BlueBubbles adapter’s webhook registrations on the Mac', () => {
  let fake: FakeBlueBubbles;
  let t: TestApp;

  afterEach(async () => {
    await t.close();
    await fake.stop();
  });

  /** Registers `url` on the Mac as another program would. */
  async function foreignWebhook(url: string): Promise<void> {
    const response = await fetch(`${fake.baseUrl}/api/v1/webhook?password=${fake.password}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: ['new-message'] }),
    });
    expect(response.status).toBe(200);
  }

  const bluebubbles = (name: string, address: string) =>
    adminPost<Instance>(t.app, '/admin/v1/instances', {
      name,
      provider: 'bluebubbles',
      channels: ['imessage'],
      config: { serverUrl: fake.baseUrl, password: fake.password, address },
    });

  it('removes its own stale ones (an old token, a deleted instance) and leaves the rest alone', async () => {
    fake = new FakeBlueBubbles({ stepMs: 5, switches: PRIVATE_API_ENABLED });
    await fake.start();
    ({ t } = await buildListeningApp({ INSTANCE_HEALTH_INTERVAL_MS: '100000' }));
    const someoneElse = 'http://127.0.0.1:9/hooks/bluebubbles';
    await foreignWebhook(someoneElse);
    const first = await bluebubbles('mac', '+14155550100');
    await waitFor(() => fake.webhookUrls().includes(first.ingressUrl), 5_000, 'registered');
    // Another gateway's ingress on the same Mac looks alike but is not under this PUBLIC_BASE_URL.
    const lookalike = first.ingressUrl.replace(/^http:\/\/[^/]+/, 'http://10.0.0.9:3000');
    await foreignWebhook(lookalike);

    // A new token: the old URL is removed as the new one is registered.
    const rotated = expectSuccess<Instance>(
      await t.app.inject({
        method: 'POST',
        url: `/admin/v1/instances/${first.id}/rotate-ingress-token`,
        headers: adminHeaders,
      }),
    );
    await waitFor(
      () =>
        fake.webhookUrls().includes(rotated.ingressUrl) &&
        !fake.webhookUrls().includes(first.ingressUrl),
      8_000,
      'the old token removed',
    );

    // A second instance on the same Mac, then deleted: the remaining instance removes its URL.
    const second = await bluebubbles('mac-2', '+14155550101');
    await t.app.services.providers.provider(second.id);
    await waitFor(() => fake.webhookUrls().includes(second.ingressUrl), 5_000, 'second');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/instances/${second.id}?force=true`,
      headers: adminHeaders,
    });
    expect(deleted.statusCode).toBe(200);
    expect(fake.webhookUrls()).toContain(second.ingressUrl);
    await t.app.services.providers.checkInstanceHealth(first.id);
    expect(fake.webhookUrls().sort()).toEqual([lookalike, rotated.ingressUrl, someoneElse].sort());
  });
});
