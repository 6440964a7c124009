import { describe, expect, it } from 'vitest';
import { buildMessagingApp } from './messages/messaging-fixture';
import { adminHeaders } from './support/admin-helpers';
import { expectFailure } from './support/envelope-assertions';
import { buildTestApp } from './support/test-app';
import { waitFor } from './support/wait-for';
import { createWebhook, receiver } from './webhooks/webhook-test-support';

/** The value of one series in a Prometheus text page, or undefined when it is absent. */
function series(
  page: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of page.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([key, value]) =>
      line.includes(`${key}="${value}"`),
    );
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('reports requests, messages, the outbox and schedule, webhook attempts, streams and provider health', async () => {
    const t = await buildMessagingApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    const hook = await receiver();
    await createWebhook(
      t.app,
      { authorization: `Bearer ${t.key}` },
      {
        url: `${hook.origin}/hooks`,
        events: ['message.sent'],
      },
    );
    const id = await t.sendOk({ to: '+14155550199', content: { text: 'counted' } });
    await t.waitForStatus(id, 'delivered', 'read');
    await t.sendOk({
      to: '+14155550199',
      content: { text: 'later' },
      scheduledAt: new Date(t.clock.now() + 3_600_000).toISOString(),
    });
    await waitFor(() => hook.requests.length >= 1);

    const scrape = async () => {
      const response = await t.app.inject({ url: '/metrics', headers: adminHeaders });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      return response.body;
    };
    const page = await waitFor(async () => {
      const body = await scrape();
      return (
        (series(body, 'switchboard_webhook_deliveries_total', { outcome: 'delivered' }) ?? 0) >=
          1 && body
      );
    });
    expect(
      series(page, 'switchboard_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/v1/messages',
        status: '202',
      }),
    ).toBe(2);
    expect(
      series(page, 'switchboard_messages_total', { status: 'sent', channel: 'imessage' }),
    ).toBe(1);
    expect(
      series(page, 'switchboard_messages_total', { status: 'scheduled', channel: 'none' }),
    ).toBe(1);
    expect(series(page, 'switchboard_scheduled_messages')).toBe(1);
    expect(series(page, 'switchboard_outbox_messages', { status: 'queued' })).toBe(0);
    expect(series(page, 'switchboard_webhook_deliveries_pending')).toBe(0);
    expect(series(page, 'switchboard_webhook_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(
      1,
    );
    expect(series(page, 'switchboard_event_stream_subscribers')).toBe(0);
    expect(
      series(page, 'switchboard_provider_health', { instance: 'simulator', status: 'healthy' }),
    ).toBeDefined();
    expect(series(page, 'switchboard_process_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(
      0,
    );
  });

  it('needs the operator token by default: no credential, a wrong one or an API key answer 401', async () => {
    const t = await buildMessagingApp();
    expectFailure(await t.app.inject({ url: '/metrics' }), 401, 'UNAUTHORIZED');
    expectFailure(
      await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${t.key}` } }),
      401,
      'UNAUTHORIZED',
    );
    expectFailure(
      await t.app.inject({
        url: '/metrics',
        headers: { authorization: 'Bearer wrong-token-123456' },
      }),
      401,
      'UNAUTHORIZED',
    );
    const ok = await t.app.inject({ url: '/metrics', headers: adminHeaders });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('switchboard_http_request_duration_seconds');
  });

  it('answers 401 to everyone without an operator or metrics token configured', async () => {
    const t = await buildTestApp({ env: { SWITCHBOARD_ADMIN_TOKEN: '' } });
    try {
      const refused = expectFailure(await t.app.inject({ url: '/metrics' }), 401, 'UNAUTHORIZED');
      expect(refused.error.message).toMatch(/METRICS_OPEN=true/);
    } finally {
      await t.close();
    }
  });

  it('is open without a credential only when the operator says so (METRICS_OPEN=true)', async () => {
    const t = await buildMessagingApp({ env: { METRICS_OPEN: 'true' } });
    const open = await t.app.inject({ url: '/metrics' });
    expect(open.statusCode).toBe(200);
    expect(open.body).toContain('switchboard_http_request_duration_seconds');
  });

  it('takes METRICS_TOKEN when the operator sets one, besides the operator token', async () => {
    const token = 'metrics-token-0123456789';
    const t = await buildMessagingApp({ env: { METRICS_TOKEN: token } });
    expectFailure(await t.app.inject({ url: '/metrics' }), 401, 'UNAUTHORIZED');
    expect((await t.app.inject({ url: '/metrics', headers: adminHeaders })).statusCode).toBe(200);
    expectFailure(
      await t.app.inject({
        url: '/metrics',
        headers: { authorization: 'Bearer wrong-token-123456' },
      }),
      401,
      'UNAUTHORIZED',
    );
    const ok = await t.app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('switchboard_http_request_duration_seconds');
  });
});
