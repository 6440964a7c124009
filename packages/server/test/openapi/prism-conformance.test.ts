import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freeLoopbackPort, startLoopbackReceiver } from '@switchboard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../support/child-process';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../support/test-app';

// A representative set of valid requests (and a few refused ones), replayed through Stoplight
// Prism in proxy mode in front of the real server: Prism checks every request and every response
// against openapi/openapi.json and reports what does not match in the `sl-violations` header
// (with `--errors`, a response violation also turns the answer into an error). The check is that
// the committed OpenAPI file describes what the server really answers.

const OPENAPI = join(PACKAGE_ROOT, '..', '..', 'openapi', 'openapi.json');

let server: TestApp;
let prism: ChildProcess;
let proxy: string;
const seen: string[] = [];
const violations: string[] = [];

/**
 * Starts Prism's proxy on a free loopback port in front of `upstream`; resolves with its origin.
 * Prism takes a port number, not a listening socket, so another process may take the port between
 * the probe and Prism's own bind: then it tries another port.
 */
async function startPrism(upstream: string): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freeLoopbackPort();
    try {
      await spawnPrism(upstream, port);
      return `http://127.0.0.1:${port}`;
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

/** Runs Prism's proxy on `port`; resolves once it listens, rejects with its output if it exits. */
async function spawnPrism(upstream: string, port: number): Promise<void> {
  prism = spawn(
    join(PACKAGE_ROOT, 'node_modules', '.bin', 'prism'),
    ['proxy', OPENAPI, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const child = prism;
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Prism is listening')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`prism exited with ${code}: ${output}`)));
  });
}

beforeAll(async () => {
  server = await buildTestApp({
    env: {
      SIMULATOR_STEP_MS: '0',
      RATE_LIMIT_PER_MINUTE: '100000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '20',
      LOG_LEVEL: 'warn',
    },
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  proxy = await startPrism(`http://127.0.0.1:${port}`);
}, 60_000);

afterAll(async () => {
  prism?.kill('SIGTERM');
  await server?.close();
});

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, field by field
  data: any;
  contentType: string | null;
  bytes: Uint8Array;
}

/** One request through the proxy; records what Prism found wrong with it. */
async function call(
  method: string,
  path: string,
  options: { body?: unknown; auth?: string; expect?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.auth !== undefined) headers.authorization = `Bearer ${options.auth}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${proxy}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const contentType = response.headers.get('content-type');
  const label = `${method} ${path.split('?')[0]} → ${response.status}`;
  seen.push(label);
  const reported = response.headers.get('sl-violations');
  if (reported) violations.push(`${label}: ${reported}`);
  let data: unknown = null;
  if (contentType?.includes('json')) {
    const parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as { data?: unknown };
    data = parsed.data ?? parsed;
  }
  expect(response.status, `${label}: ${Buffer.from(bytes).toString('utf8').slice(0, 300)}`).toBe(
    options.expect ?? (method === 'POST' ? response.status : 200),
  );
  return { status: response.status, data, contentType, bytes };
}

describe('responses match the OpenAPI file (Prism proxy)', () => {
  it('replays the main flows of every resource with no violation', async () => {
    const admin = ADMIN_TOKEN;
    await call('GET', '/');
    await call('GET', '/health');

    // The operator API.
    const instance = (
      await call('POST', '/admin/v1/instances', {
        auth: admin,
        body: {
          name: 'simulator',
          provider: 'simulator',
          channels: ['imessage', 'sms', 'whatsapp'],
        },
      })
    ).data;
    await call('GET', '/admin/v1/instances', { auth: admin });
    await call('GET', `/admin/v1/instances/${instance.id}`, { auth: admin });
    await call('PATCH', `/admin/v1/instances/${instance.id}`, {
      auth: admin,
      body: { config: { pacing: { perSecond: 50 } } },
    });
    const customer = (
      await call('POST', '/admin/v1/customers', {
        auth: admin,
        body: { name: 'Acme' },
      })
    ).data;
    await call('GET', '/admin/v1/customers', { auth: admin });
    const key = (
      await call('POST', `/admin/v1/customers/${customer.id}/api-keys`, {
        auth: admin,
        body: { name: 'conformance' },
      })
    ).data.key as string;
    await call('GET', `/admin/v1/customers/${customer.id}/api-keys`, { auth: admin });
    for (const [phoneNumber, isDefault] of [
      ['+14155550100', true],
      ['+14155550101', false],
    ] as const) {
      await call('POST', `/admin/v1/customers/${customer.id}/numbers`, {
        auth: admin,
        body: { phoneNumber, instanceId: instance.id, isDefault },
      });
    }
    await call('GET', `/admin/v1/customers/${customer.id}/numbers`, { auth: admin });
    await call('GET', `/admin/v1/customers/${customer.id}/opt-outs`, { auth: admin });

    // Numbers, capabilities, opt-outs, callbacks.
    await call('GET', '/v1/numbers', { auth: key });
    await call('GET', '/v1/capabilities/%2B14155550103', { auth: key });
    await call('GET', '/v1/opt-outs', { auth: key });
    await call('GET', '/v1/callbacks/secret', { auth: key });
    await call('POST', '/v1/callbacks/secret/rotate', { auth: key });
    await call('GET', '/v1/callbacks/deliveries', { auth: key });

    // Webhooks, with a receiver on loopback.
    const receiver = await startLoopbackReceiver();
    try {
      const hook = (
        await call('POST', '/v1/webhooks', {
          auth: key,
          body: { url: `${receiver.origin}/hook`, events: ['*'], name: 'all' },
        })
      ).data;
      await call('GET', '/v1/webhooks/list', { auth: key });
      await call('GET', `/v1/webhooks/${hook.id}`, { auth: key });
      await call('PATCH', `/v1/webhooks/${hook.id}`, { auth: key, body: { name: 'everything' } });
      await call('POST', `/v1/webhooks/${hook.id}/test`, { auth: key });
      const log = (await call('GET', `/v1/webhooks/${hook.id}/deliveries`, { auth: key })).data;
      await call('POST', `/v1/webhooks/${hook.id}/deliveries/${log.deliveries[0].id}/redeliver`, {
        auth: key,
      });
      await call('GET', '/v1/webhooks', { auth: key });

      // Messages: send, read, list, react, edit, schedule and cancel, unsend, delete, retry.
      const sent = (
        await call('POST', '/v1/messages', {
          auth: key,
          body: { to: '+14155550103', content: { text: 'Hello' }, idempotencyKey: 'conf-1' },
          expect: 202,
        })
      ).data;
      await call('POST', '/v1/messages', {
        auth: key,
        body: { to: '+14155550103', content: { text: 'Hello' }, idempotencyKey: 'conf-1' },
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await call('GET', `/v1/messages/${sent.id}`, { auth: key });
      await call('GET', '/v1/messages?limit=5', { auth: key });
      await call('POST', `/v1/messages/${sent.id}/reactions`, {
        auth: key,
        body: { type: 'love' },
      });
      await call('PUT', `/v1/messages/${sent.id}`, { auth: key, body: { text: 'Hello again' } });
      const scheduled = (
        await call('POST', '/v1/messages', {
          auth: key,
          body: {
            to: '+14155550103',
            content: { text: 'Later' },
            scheduledAt: new Date(server.clock.now() + 3_600_000).toISOString(),
          },
        })
      ).data;
      await call('GET', '/v1/messages/scheduled', { auth: key });
      await call('DELETE', `/v1/messages/${scheduled.id}/schedule`, { auth: key });
      await call('POST', `/v1/messages/${sent.id}/unsend`, { auth: key });
      await call('DELETE', `/v1/messages/${scheduled.id}`, { auth: key });
      const failing = (
        await call('POST', '/v1/messages', {
          auth: key,
          body: { to: '+14155550137', content: { text: 'Fails' } },
        })
      ).data;
      await new Promise((resolve) => setTimeout(resolve, 300));
      await call('POST', `/v1/messages/${failing.id}/retry`, { auth: key });

      // Chats.
      const group = (
        await call('POST', '/v1/chats/groups', {
          auth: key,
          body: {
            participants: ['+14155550111', '+14155550112'],
            name: 'Crew',
            channel: 'imessage',
          },
        })
      ).data;
      const chat = encodeURIComponent(group.chatId ?? group.id);
      await call('GET', `/v1/chats/${chat}`, { auth: key });
      await call('PUT', `/v1/chats/${chat}/name`, { auth: key, body: { name: 'Crew 2' } });
      await call('POST', `/v1/chats/${chat}/participants`, {
        auth: key,
        body: { participant: '+14155550113' },
      });
      await call('DELETE', `/v1/chats/${chat}/participants/%2B14155550113`, { auth: key });
      await call('POST', `/v1/chats/${chat}/typing`, {
        auth: key,
        body: { status: 'start' },
      });
      await call('POST', `/v1/chats/${chat}/read`, { auth: key });
      await call('POST', `/v1/chats/${chat}/unread`, { auth: key });
      await call('POST', `/v1/chats/${chat}/leave`, { auth: key });

      // The sandbox, an inbound attachment and its download (the file's own Content-Type).
      const inbound = (
        await call('POST', '/v1/sandbox/inbound-messages', {
          auth: key,
          body: {
            channel: 'imessage',
            from: '+14155550123',
            to: '+14155550100',
            text: 'A photo',
            attachments: [
              { data: Buffer.from('%PDF-1.4 conformance').toString('base64'), filename: 'a.pdf' },
            ],
          },
        })
      ).data;
      const download = new URL(inbound.attachments[0].downloadUrl);
      const file = await call('GET', `${download.pathname}${download.search}`);
      expect(file.contentType).toBe('application/pdf');
      await call('POST', '/v1/sandbox/reactions', {
        auth: key,
        body: {
          channel: 'imessage',
          from: '+14155550123',
          to: '+14155550100',
          messageId: sent.id,
          type: 'like',
        },
      });
      await call('POST', '/v1/sandbox/typing', {
        auth: key,
        body: { channel: 'whatsapp', from: '+14155550160', to: '+14155550100', status: 'start' },
      });
      await call('POST', '/v1/sandbox/facetime/calls', {
        auth: key,
        body: { caller: '+14155550123', to: '+14155550100', video: false },
      });
      await call('POST', '/v1/sandbox/numbers/%2B14155550101/health', {
        auth: key,
        body: { status: 'degraded' },
      });

      // WhatsApp sessions.
      await call('GET', '/v1/whatsapp', { auth: key });
      await call('POST', '/v1/whatsapp/numbers/%2B14155550101/enable', { auth: key });
      await call('GET', '/v1/whatsapp/numbers/%2B14155550101/status', { auth: key });

      // Refusals are documented too.
      await call('GET', '/v1/messages/msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e', {
        auth: key,
        expect: 404,
      });
      await call('POST', '/v1/messages', { auth: key, body: { to: 'nobody' }, expect: 400 });
      await call('GET', '/v1/numbers', { auth: 'sk_wrong', expect: 401 });

      await call('DELETE', `/v1/webhooks/${hook.id}`, { auth: key });
    } finally {
      await receiver.close();
    }
    expect(seen.length).toBeGreaterThan(60);
    expect(violations).toEqual([]);
  }, 120_000);
});
