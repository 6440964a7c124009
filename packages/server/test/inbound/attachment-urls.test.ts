import type { Message, MessageList, SandboxInboundMessageResult } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import {
  buildChatApp,
  type ChatTestApp,
  defined,
  expectFailure,
  IMESSAGE_CONTACT,
  OWN_NUMBER,
} from '../chats/chat-test-app';
import { buildTestApp, tempDir } from '../support/test-app';

const PHOTO = { data: Buffer.from('not really a jpeg').toString('base64'), filename: 'a.jpg' };

/** A contact sends {@link PHOTO}; answers what the sandbox says the message became. */
function receivePhotoMessage(t: ChatTestApp): Promise<SandboxInboundMessageResult> {
  return t.acme.ok<SandboxInboundMessageResult>('POST', '/v1/sandbox/inbound-messages', {
    channel: 'imessage',
    from: IMESSAGE_CONTACT,
    to: OWN_NUMBER,
    attachments: [PHOTO],
  });
}

/** A contact sends {@link PHOTO}; answers its download URL. */
async function receivePhoto(t: ChatTestApp): Promise<string> {
  const result = await receivePhotoMessage(t);
  return defined(result.attachments[0]?.downloadUrl, 'downloadUrl');
}

/** The path and query of a download URL, to request it from the app. */
function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

describe('attachment download URLs', () => {
  it('live under PUBLIC_BASE_URL and serve the stored type with no API key', async () => {
    const t = await buildChatApp({ env: { PUBLIC_BASE_URL: 'https://sb.example.com/' } });
    const url = new URL(await receivePhoto(t));
    expect(url.origin).toBe('https://sb.example.com');
    const response = await t.app.inject({ url: `${url.pathname}${url.search}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toContain('no-store');
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    expect(response.body).toBe('not really a jpeg');
    // A well-signed URL of an attachment that does not exist cannot be made; an unknown id with a
    // forged signature is refused before any lookup.
    expectFailure(
      await t.app.inject({ url: `/v1/attachments/att_nope${url.search}` }),
      403,
      'FORBIDDEN',
    );
  });

  it('are signed afresh each time the message is read, so an old message still links to its bytes', async () => {
    const t = await buildChatApp();
    const received = await receivePhotoMessage(t);
    const atReceipt = new URL(defined(received.attachments[0]?.downloadUrl, 'downloadUrl'));
    t.clock.advance(2 * 60 * 60 * 1000);
    // The URL of the receipt (and of `message.inbound`) has expired…
    expectFailure(await t.app.inject({ url: pathOf(atReceipt) }), 403, 'FORBIDDEN');

    // …the message read now carries a new one, valid one hour from this read.
    const message = await t.acme.ok<Message>('GET', `/v1/messages/${received.messageId}`);
    const fresh = new URL(defined(message.attachments[0]?.downloadUrl, 'downloadUrl'));
    expect(fresh.pathname).toBe(atReceipt.pathname);
    expect(Number(fresh.searchParams.get('expires'))).toBe(t.clock.now() / 1000 + 60 * 60);
    const download = await t.app.inject({ url: pathOf(fresh) });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.body).toBe('not really a jpeg');
    const listed = await t.acme.ok<MessageList>('GET', '/v1/messages');
    const inList = listed.messages.find((candidate) => candidate.id === received.messageId);
    expect(inList?.attachments[0]?.downloadUrl).toBe(fresh.href);
  });

  it('survive a restart: the generated signing key is kept in the database', async () => {
    const dir = tempDir();
    const first = await buildChatApp({ dir });
    const url = new URL(await receivePhoto(first));
    await first.close();
    const second = await buildTestApp({ dir, env: { LOG_LEVEL: 'warn' } });
    const response = await second.app.inject({ url: `${url.pathname}${url.search}` });
    expect(response.statusCode, response.body).toBe(200);
    // Still expiring one hour after it was issued.
    second.clock.advance(60 * 60 * 1000);
    expectFailure(
      await second.app.inject({ url: `${url.pathname}${url.search}` }),
      403,
      'FORBIDDEN',
    );
  });

  it('use ATTACHMENT_SIGNING_SECRET when set, which must be long', async () => {
    expect(() => loadConfig({ ATTACHMENT_SIGNING_SECRET: 'short' })).toThrow(
      /ATTACHMENT_SIGNING_SECRET/,
    );
    const secret = 'a-very-long-attachment-signing-secret-0123456789';
    const dir = tempDir();
    const first = await buildChatApp({ dir, env: { ATTACHMENT_SIGNING_SECRET: secret } });
    const url = new URL(await receivePhoto(first));
    await first.close();
    // Another key on the same data: the URL no longer verifies.
    const rotated = await buildTestApp({
      dir,
      env: { LOG_LEVEL: 'warn', ATTACHMENT_SIGNING_SECRET: `${secret}-rotated` },
    });
    expectFailure(
      await rotated.app.inject({ url: `${url.pathname}${url.search}` }),
      403,
      'FORBIDDEN',
    );
  });
});
