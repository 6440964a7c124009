import type {
  HealthReport,
  SandboxHealthResult,
  SandboxInboundMessageResult,
  SenderNumber,
  SendMessageResult,
} from '@switchboard/contract';
import type { MessagingProvider } from '@switchboard/provider-kit';
import { ProviderRegistry } from '@switchboard/provider-kit';
import { describe, expect, it } from 'vitest';
import { createSimulatorFactory } from '../../src/providers/simulator/simulator-factory';
import {
  buildChatApp,
  chatUrl,
  createGroup,
  eventually,
  expectFailure,
  IMESSAGE_CONTACT,
  OWN_NUMBER,
  SECOND_NUMBER,
  type TestCustomer,
  WHATSAPP_CONTACT,
} from '../chats/chat-test-app';
import { observe, ofType } from '../inbound/observers';
import { createInstance } from '../support/admin-helpers';
import { bodyOf } from '../support/test-app';

/** Every sandbox route that names a receiving number, with a body for `number`. */
function numberRoutes(number: string): [string, string, unknown][] {
  const path = `/v1/sandbox/whatsapp/numbers/${encodeURIComponent(number)}`;
  return [
    [
      'POST',
      '/v1/sandbox/inbound-messages',
      { channel: 'sms', from: IMESSAGE_CONTACT, to: number, text: 'x' },
    ],
    [
      'POST',
      '/v1/sandbox/reactions',
      {
        channel: 'imessage',
        from: IMESSAGE_CONTACT,
        to: number,
        targetExternalId: 'E1',
        type: 'like',
      },
    ],
    [
      'POST',
      '/v1/sandbox/typing',
      { channel: 'whatsapp', from: WHATSAPP_CONTACT, to: number, status: 'start' },
    ],
    [
      'POST',
      '/v1/sandbox/audio-kept',
      { from: IMESSAGE_CONTACT, to: number, targetExternalId: 'E1' },
    ],
    ['POST', '/v1/sandbox/facetime/calls', { caller: IMESSAGE_CONTACT, to: number }],
    ['POST', `${path}/scan`, undefined],
    ['POST', `${path}/pairing-code`, { code: 'ABCD1234' }],
    ['POST', `${path}/drop`, undefined],
    ['POST', `${path}/lid-resolutions`, { lid: '1@lid', phone: '+14155550164' }],
    [
      'POST',
      `/v1/sandbox/numbers/${encodeURIComponent(number)}/health`,
      { status: 'degraded', warnings: ['private_api_disabled'] },
    ],
  ];
}

async function expectAllNotFound(customer: TestCustomer, number: string): Promise<void> {
  for (const [method, url, body] of numberRoutes(number)) {
    const response = await customer.request(method as 'POST', url, body);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(404);
    expectFailure(response, 404, 'NOT_FOUND');
  }
}

describe('the sandbox', () => {
  it('drives only the caller’s own numbers: another customer’s or an unknown number is 404', async () => {
    const t = await buildChatApp();
    const other = await t.addCustomer('Other', '+14155550180');
    await expectAllNotFound(other, OWN_NUMBER);
    await expectAllNotFound(t.acme, '+14155550199');
    // A message or chat of another customer cannot be driven either.
    const sent = await t.acme.ok<SendMessageResult>(
      'POST',
      '/v1/messages',
      { to: IMESSAGE_CONTACT, content: { text: 'hi' } },
      202,
    );
    expectFailure(
      await other.request('POST', `/v1/sandbox/messages/${sent.id}/status`, { status: 'read' }),
      404,
      'NOT_FOUND',
    );
    expectFailure(
      await other.request('POST', '/v1/sandbox/reactions', {
        channel: 'imessage',
        from: IMESSAGE_CONTACT,
        to: '+14155550180',
        messageId: sent.id,
        type: 'love',
      }),
      404,
      'NOT_FOUND',
    );
    const group = await createGroup(t.acme, { participants: [IMESSAGE_CONTACT] });
    expectFailure(
      await other.request(
        'POST',
        chatUrl(group.chatId, '/events').replace('/v1/chats', '/v1/sandbox/chats'),
        {
          action: 'photo.changed',
          actor: IMESSAGE_CONTACT,
        },
      ),
      404,
      'CONVERSATION_NOT_FOUND',
    );
  });

  it('is 404 for numbers served by a provider other than the simulator', async () => {
    const simulator = createSimulatorFactory({ stepMs: 0 });
    // Stands in for a real upstream adapter: it works like the simulator but has no sandbox.
    const registry = new ProviderRegistry().register({
      ...simulator,
      create(instance) {
        const inner = simulator.create(instance);
        if (instance.name !== 'real-upstream') return inner;
        return new Proxy({} as MessagingProvider, {
          get(_target, property) {
            if (property === 'sandbox') return undefined;
            const value: unknown = Reflect.get(inner, property);
            return typeof value === 'function' ? value.bind(inner) : value;
          },
        });
      },
    });
    const t = await buildChatApp({ overrides: { providerRegistry: registry } });
    const upstream = await createInstance(t.app, 'real-upstream');
    const beta = await t.addCustomer('Beta', '+14155550170', upstream.id);
    await expectAllNotFound(beta, '+14155550170');
    // The number itself works: it sends.
    await beta.ok('POST', '/v1/messages', { to: IMESSAGE_CONTACT, content: { text: 'hi' } }, 202);
  });

  it('refuses channels the instance does not serve, and malformed actions', async () => {
    const t = await buildChatApp();
    const smsOnly = await createInstance(t.app, 'sms-only', ['sms']);
    const beta = await t.addCustomer('Beta', '+14155550170', smsOnly.id);
    expectFailure(
      await beta.request('POST', '/v1/sandbox/inbound-messages', {
        channel: 'imessage',
        from: IMESSAGE_CONTACT,
        to: '+14155550170',
        text: 'x',
      }),
      400,
      'CHANNEL_NOT_SUPPORTED',
    );
    expectFailure(
      await beta.request('POST', '/v1/sandbox/facetime/calls', {
        caller: IMESSAGE_CONTACT,
        to: '+14155550170',
      }),
      400,
      'CHANNEL_NOT_SUPPORTED',
    );
    const bad: [string, Record<string, unknown>, string][] = [
      [
        '/v1/sandbox/inbound-messages',
        { channel: 'sms', from: IMESSAGE_CONTACT, to: OWN_NUMBER },
        'VALIDATION_ERROR',
      ],
      [
        '/v1/sandbox/inbound-messages',
        { channel: 'imessage', from: '1@lid', to: OWN_NUMBER, text: 'x' },
        'VALIDATION_ERROR',
      ],
      [
        '/v1/sandbox/inbound-messages',
        { channel: 'sms', from: '415 555 0123', to: OWN_NUMBER, text: 'x' },
        'INVALID_PHONE_NUMBER',
      ],
      [
        '/v1/sandbox/inbound-messages',
        {
          channel: 'sms',
          from: IMESSAGE_CONTACT,
          to: OWN_NUMBER,
          attachments: [{ data: 'not base64!' }],
        },
        'VALIDATION_ERROR',
      ],
      [
        '/v1/sandbox/reactions',
        {
          channel: 'imessage',
          from: IMESSAGE_CONTACT,
          to: OWN_NUMBER,
          targetExternalId: 'E1',
          type: 'emoji',
        },
        'VALIDATION_ERROR',
      ],
      [
        '/v1/sandbox/reactions',
        {
          channel: 'imessage',
          from: IMESSAGE_CONTACT,
          to: OWN_NUMBER,
          targetExternalId: 'E1',
          messageId: 'msg_x',
          type: 'like',
        },
        'VALIDATION_ERROR',
      ],
      [
        '/v1/sandbox/typing',
        { channel: 'sms', from: IMESSAGE_CONTACT, to: OWN_NUMBER, status: 'start' },
        'VALIDATION_ERROR',
      ],
    ];
    for (const [url, body, code] of bad) {
      const response = await t.acme.request('POST', url, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}: ${response.body}`).toBe(400);
      expectFailure(response, 400, code as 'VALIDATION_ERROR');
    }
    expectFailure(
      await t.acme.request('POST', '/v1/sandbox/audio-kept', {
        from: IMESSAGE_CONTACT,
        to: OWN_NUMBER,
        messageId: 'msg_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('simulates a number’s health for its customer alone: never another customer’s view nor /health', async () => {
    const t = await buildChatApp();
    const other = await t.addCustomer('Other', '+14155550180');
    const healthUrl = (number: string) =>
      `/v1/sandbox/numbers/${encodeURIComponent(number)}/health`;
    const reported = async () =>
      bodyOf<HealthReport>(await t.app.inject({ method: 'GET', url: '/health' }));
    const numbersHealth = async (customer: typeof t.acme) =>
      (await customer.ok<SenderNumber[]>('GET', '/v1/numbers')).map((number): [string, string] => [
        number.phoneNumber,
        number.healthStatus,
      ]);
    const before = await reported();
    const otherBefore = await numbersHealth(other);

    const degraded = await t.acme.ok<SandboxHealthResult>('POST', healthUrl(OWN_NUMBER), {
      status: 'degraded',
      warnings: ['private_api_disabled', 'icloud_account_missing'],
    });
    const warnings = [
      'Private API disabled',
      'No iCloud account detected (imessage and FaceTime unavailable)',
    ];
    expect(degraded).toEqual({
      instanceName: 'simulator',
      status: 'degraded',
      warnings,
      checkedAt: new Date(t.clock.now()).toISOString(),
    });
    // The caller's number shows it; its other number, the other customer and /health do not.
    const acmeHealth = new Map(await numbersHealth(t.acme));
    expect(acmeHealth.get(OWN_NUMBER)).toBe('degraded');
    expect(acmeHealth.get(SECOND_NUMBER)).not.toBe('degraded');
    expect(await numbersHealth(other)).toEqual(otherBefore);
    const after = await reported();
    expect(after.status).toBe(before.status);
    expect(after.checks).toEqual(before.checks);

    // `unhealthy`, then back to healthy; the path's leading + may be left out.
    await t.acme.ok('POST', `/v1/sandbox/numbers/${OWN_NUMBER.slice(1)}/health`, {
      status: 'unhealthy',
    });
    expect(new Map(await numbersHealth(t.acme)).get(OWN_NUMBER)).toBe('unhealthy');
    expect(await numbersHealth(other)).toEqual(otherBefore);
    const healthy = await t.acme.ok<SandboxHealthResult>('POST', healthUrl(OWN_NUMBER), {
      status: 'healthy',
    });
    expect(healthy).toMatchObject({ status: 'healthy', warnings: [] });
    expect(new Map(await numbersHealth(t.acme)).get(OWN_NUMBER)).toBe(
      acmeHealth.get(SECOND_NUMBER),
    );

    for (const body of [
      { status: 'healthy', warnings: ['private_api_disabled'] },
      { status: 'unknown' },
      { status: 'degraded', warnings: ['no_such_warning'] },
      { status: 'degraded', extra: true },
    ]) {
      expectFailure(
        await t.acme.request('POST', healthUrl(OWN_NUMBER), body),
        400,
        'VALIDATION_ERROR',
      );
    }
    expectFailure(
      await t.acme.request('POST', '/v1/sandbox/numbers/not-a-number/health', {
        status: 'healthy',
      }),
      400,
      'INVALID_PHONE_NUMBER',
    );
  });

  it('never lets one customer’s inbound traffic reach another', async () => {
    const t = await buildChatApp();
    const other = await t.addCustomer('Other', '+14155550180');
    const acmeObserved = await observe(t.app, t.acme);
    const otherObserved = await observe(t.app, other);
    const toAcme = await t.acme.ok<SandboxInboundMessageResult>(
      'POST',
      '/v1/sandbox/inbound-messages',
      {
        channel: 'imessage',
        from: IMESSAGE_CONTACT,
        to: OWN_NUMBER,
        text: 'for Acme only',
      },
    );
    const toOther = await other.ok<SandboxInboundMessageResult>(
      'POST',
      '/v1/sandbox/inbound-messages',
      {
        channel: 'imessage',
        from: IMESSAGE_CONTACT,
        to: '+14155550180',
        text: 'for Other only',
      },
    );
    await acmeObserved.both(
      ofType('message.inbound', (e) => e.data.messageId === toAcme.messageId),
    );
    await otherObserved.both(
      ofType('message.inbound', (e) => e.data.messageId === toOther.messageId),
    );
    await t.acme.ok('POST', '/v1/sandbox/facetime/calls', {
      caller: IMESSAGE_CONTACT,
      to: OWN_NUMBER,
    });
    await acmeObserved.both(ofType('facetime.incoming'));
    await eventually(() => (t.acme.events.length >= 2 ? true : undefined));

    const texts = (events: typeof t.acme.events) =>
      events.flatMap((e) => (e.type === 'message.inbound' ? [e.data.text] : []));
    for (const events of [otherObserved.webhook(), otherObserved.stream, other.events]) {
      expect(texts(events)).toEqual(['for Other only']);
      expect(events.some((e) => e.type === 'facetime.incoming')).toBe(false);
    }
    for (const events of [acmeObserved.webhook(), acmeObserved.stream, t.acme.events]) {
      expect(texts(events)).toEqual(['for Acme only']);
    }
    expectFailure(await other.request('GET', `/v1/messages/${toAcme.messageId}`), 404, 'NOT_FOUND');
    const otherList = await other.ok<{ messages: { id: string }[] }>('GET', '/v1/messages');
    expect(otherList.messages.map((m) => m.id)).toEqual([toOther.messageId]);
  });
});
