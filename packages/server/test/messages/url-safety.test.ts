import { describe, expect, it } from 'vitest';
import type { HostResolver, ResolvedAddress } from '../../src/egress/safe-dispatcher';
import { FORBIDDEN_URLS } from '../support/forbidden-urls';
import { bodyOf } from '../support/test-app';
import { buildMessagingApp } from './messaging-fixture';

type Failure = { error: { code: string; message: string } };

const TO = '+14155550123';
const PRIVATE_ONLY = { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' };

/** Each field of a send that carries a URL, as a body builder and the name its errors use. */
const URL_FIELDS: Array<{ field: RegExp; body: (url: string) => Record<string, unknown> }> = [
  {
    field: /^content\.mediaUrls\[0\]/,
    body: (url) => ({ to: TO, content: { mediaUrls: [url] } }),
  },
  { field: /^attachments\[0\]\.url/, body: (url) => ({ to: TO, attachments: [{ url }] }) },
  {
    field: /^callbackUrl/,
    body: (url) => ({ to: TO, content: { text: 'hi' }, callbackUrl: url }),
  },
];

/** A resolver whose answers a test changes between sends (DNS rebinding). */
function switchableResolver(initial: string): HostResolver & { answer: string; asked: string[] } {
  const resolver = Object.assign(
    async (hostname: string): Promise<ResolvedAddress[]> => {
      resolver.asked.push(hostname);
      return [{ address: resolver.answer, family: 4 }];
    },
    { answer: initial, asked: [] as string[] },
  );
  return resolver;
}

describe('URLs a customer gives with a send', () => {
  it(`refuses ${FORBIDDEN_URLS.length} spellings on every URL field, naming the field, storing nothing`, async () => {
    const app = await buildMessagingApp({ env: PRIVATE_ONLY });
    expect(FORBIDDEN_URLS.length).toBeGreaterThanOrEqual(30);
    for (const { field, body } of URL_FIELDS) {
      for (const url of FORBIDDEN_URLS) {
        const response = await app.send(body(url));
        expect(response.statusCode, `${field} ${url}: ${response.body}`).toBe(400);
        const { error } = bodyOf<Failure>(response);
        expect(error.code).toBe('VALIDATION_ERROR');
        expect(error.message, url).toMatch(field);
      }
    }
    const list = bodyOf<{ data: { messages: unknown[] } }>(
      await app.request('GET', '/v1/messages'),
    );
    expect(list.data.messages).toEqual([]);
  });

  it('says how an operator allows private targets when a URL is refused for being private', async () => {
    const app = await buildMessagingApp({ env: PRIVATE_ONLY });
    const response = await app.send(URL_FIELDS[2]?.body('https://10.0.0.1/status') ?? {});
    expect(bodyOf<Failure>(response).error.message).toBe(
      'callbackUrl: url must not point to a private address (10.0.0.1) (to allow private targets for local development, an operator sets WEBHOOK_ALLOW_PRIVATE_URLS=true)',
    );
  });

  it('stores the normalized URL, so the host checked is the host used', async () => {
    const app = await buildMessagingApp({
      env: PRIVATE_ONLY,
      overrides: { webhookResolver: switchableResolver('93.184.216.34') },
    });
    const id = await app.sendOk({
      to: TO,
      content: { text: 'hi' },
      callbackUrl: 'HTTPS://Hooks.Example.COM:443/a/../status',
    });
    expect((await app.app.store.messages.findByIdInAnyCustomer(id))?.callbackUrl).toBe(
      'https://hooks.example.com/status',
    );
  });

  it('checks media hosts again when the message is handed on: a name that rebinds to a private address fails the message', async () => {
    const resolver = switchableResolver('93.184.216.34');
    const app = await buildMessagingApp({
      env: PRIVATE_ONLY,
      overrides: { webhookResolver: resolver },
    });
    const media = 'https://media.rebind.example.com/cat.png';
    const first = await app.sendOk({ to: TO, content: { mediaUrls: [media] } });
    expect((await app.waitForStatus(first, 'delivered')).errorCode).toBeNull();
    expect(resolver.asked).toContain('media.rebind.example.com');

    // The same name now answers a private address: accepted at the request (names are not
    // resolved there), refused when used.
    resolver.answer = '10.1.2.3';
    for (const body of [
      { to: TO, content: { mediaUrls: [media] } },
      { to: TO, attachments: [{ url: 'https://media.rebind.example.com/report.pdf' }] },
    ]) {
      const id = await app.sendOk(body);
      const failed = await app.waitForStatus(id, 'failed');
      expect(failed.errorCode).toBe('VALIDATION_ERROR');
      expect(failed.errorMessage).toMatch(
        /^(content\.mediaUrls\[0\]|attachments\[0\]\.url): refused to connect to media\.rebind\.example\.com: it resolved to 10\.1\.2\.3, a private address \(to allow private targets/,
      );
    }
  });
});
