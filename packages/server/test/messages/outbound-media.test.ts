import { describe, expect, it } from 'vitest';
import { expectFailure } from '../support/envelope-assertions';
import { buildMessagingApp } from './messaging-fixture';
import { recordingRegistry } from './recording-providers';

const BYTES = Buffer.from('%PDF-1.7 outbound bytes');

describe('signed URLs of outbound attachment bytes', () => {
  it('hands the provider a signed, expiring URL that serves a base64 attachment without an API key', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const id = await t.sendOk({
      to: '+14155550103',
      routing: { preference: ['sms'] },
      attachments: [
        {
          type: 'base64',
          data: BYTES.toString('base64'),
          mimeType: 'application/pdf',
          filename: 'menu.pdf',
        },
      ],
    });
    await t.waitForStatus(id, 'sent', 'delivered');
    const attachment = calls.sends.find((send) => send.messageId === id)?.attachments?.[0];
    expect(attachment?.source.kind).toBe('bytes');
    const url = new URL(attachment?.publicUrl ?? '');
    expect(url.origin).toBe(t.config.publicBaseUrl);
    expect(url.pathname).toBe(`/v1/attachments/media_${id}_0`);

    const download = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(BYTES)).toBe(true);

    const forged = new URLSearchParams(url.search);
    forged.set('signature', '0'.repeat(64));
    expectFailure(
      await t.app.inject({ method: 'GET', url: `${url.pathname}?${forged}` }),
      403,
      'FORBIDDEN',
    );
    // Another position of the same message is another id, with a signature of its own.
    expectFailure(
      await t.app.inject({
        method: 'GET',
        url: `${url.pathname.replace(/_0$/, '_1')}${url.search}`,
      }),
      403,
      'FORBIDDEN',
    );

    t.clock.advance(25 * 60 * 60 * 1000);
    const expired = expectFailure(
      await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` }),
      403,
      'FORBIDDEN',
    );
    expect(expired.error.message).toContain('expired');
  });

  it('stops serving the bytes once the message is deleted', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const id = await t.sendOk({
      to: '+14155550104',
      attachments: [{ type: 'base64', data: BYTES.toString('base64'), mimeType: 'image/png' }],
    });
    await t.waitForStatus(id, 'delivered', 'read');
    const url = new URL(
      calls.sends.find((send) => send.messageId === id)?.attachments?.[0]?.publicUrl ?? '',
    );
    expect(
      (await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).statusCode,
    ).toBe(200);
    expect((await t.request('DELETE', `/v1/messages/${id}`)).statusCode).toBe(200);
    expectFailure(
      await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` }),
      404,
      'NOT_FOUND',
    );
  });

  it('gives URL attachments no URL of their own: the upstream fetches the source', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const id = await t.sendOk({
      to: '+14155550105',
      attachments: [{ type: 'url', url: 'https://cdn.example.com/a.png', mimeType: 'image/png' }],
    });
    await t.waitForStatus(id, 'delivered', 'read');
    const attachment = calls.sends.find((send) => send.messageId === id)?.attachments?.[0];
    expect(attachment?.source).toEqual({ kind: 'url', url: 'https://cdn.example.com/a.png' });
    expect(attachment?.publicUrl).toBeUndefined();
  });
});
