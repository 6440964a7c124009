import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Instance } from '@switchboard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMessagingApp, type MessagingApp, withHelpers } from '../messages/messaging-fixture';
import { recordingRegistry } from '../messages/recording-providers';
import { adminPost, assignNumber, createCustomerWithKey } from '../support/admin-helpers';
import { expectFailure } from '../support/envelope-assertions';
import { mediaSamples } from '../support/media-samples';
import { buildSimulatorTestApp, recordedEvents } from '../support/simulator-app';
import { bodyOf } from '../support/test-app';

const MB = 1024 * 1024;
/** Reachable on imessage and sms. */
const IMESSAGE_CONTACT = '+14155550199';
/** Reachable on whatsapp and sms. */
const WHATSAPP_CONTACT = '+14155550160';
const SENDER = '+14155550100';

const samples = mediaSamples();

/** A one-pixel PNG. */
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A one-pixel PNG padded to `size` bytes: an image by its bytes, of any size. */
function pngOf(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  PNG_1PX.copy(bytes);
  return bytes;
}

/** Private (loopback) URLs allowed: the files come from this machine. */
const LOCAL_FILES = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };

/** A loopback file host: fixed files, a lying Content-Length, and a body that never ends. */
let files: Server;
let origin: string;
const served = new Map<string, Buffer>();
let endlessBytesSent = 0;

beforeAll(async () => {
  files = createServer((request, response) => {
    if (request.url === '/forever.mp4') {
      response.writeHead(200, { 'content-type': 'video/mp4' });
      const chunk = Buffer.alloc(64 * 1024, 7);
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) endlessBytesSent += chunk.length;
      };
      response.on('drain', pump);
      pump();
      return;
    }
    const body = served.get(request.url ?? '');
    if (!body) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  files.closeAllConnections();
  await new Promise((resolve) => files.close(resolve));
});

/** A messaging app whose simulator instance has `mediaLimits`. */
async function appWithLimits(mediaLimits: Record<string, number>): Promise<MessagingApp> {
  const { registry } = recordingRegistry();
  const testApp = await buildSimulatorTestApp({
    env: LOCAL_FILES,
    overrides: { providerRegistry: registry },
  });
  const instance = await adminPost<Instance>(testApp.app, '/admin/v1/instances', {
    name: 'limited',
    provider: 'simulator',
    channels: ['imessage', 'sms', 'whatsapp'],
    config: { mediaLimits },
  });
  const { customer, key } = await createCustomerWithKey(testApp.app, 'Acme');
  await assignNumber(testApp.app, customer.id, {
    phoneNumber: SENDER,
    instanceId: instance.id,
    isDefault: true,
  });
  const events = recordedEvents(testApp.app, customer.id);
  return withHelpers(testApp, { key, customerId: customer.id, instanceId: instance.id, events });
}

describe('size limits at the request, when the size is known', () => {
  it('refuses an image over whatsapp’s 16 MB with 400 ATTACHMENT_TOO_LARGE naming the attachment and the limit', async () => {
    const t = await buildMessagingApp();
    const refused = expectFailure(
      await t.send({
        to: WHATSAPP_CONTACT,
        routing: { preference: ['whatsapp'], fallback: false },
        attachments: [
          { data: pngOf(1000).toString('base64') },
          { data: pngOf(16 * MB + 1).toString('base64'), mimeType: 'image/jpeg' },
        ],
      }),
      400,
      'ATTACHMENT_TOO_LARGE',
    );
    expect(refused.error.message).toBe(
      'attachments[1] (image/png, 16 MB) is larger than the 16 MB limit of image files on whatsapp',
    );
    // Exactly at the limit is accepted.
    const atLimit = await t.send({
      to: WHATSAPP_CONTACT,
      routing: { preference: ['whatsapp'], fallback: false },
      attachments: [{ data: pngOf(16 * MB).toString('base64') }],
    });
    expect(atLimit.statusCode).toBe(202);
  });

  it('takes the per-instance imessage and sms limits, and accepts a file that a fallback channel takes', async () => {
    const t = await appWithLimits({ imessageMaxBytes: 1000, smsMaxBytes: 2000 });
    const big = { data: pngOf(3000).toString('base64') };
    const refused = expectFailure(
      await t.send({ to: IMESSAGE_CONTACT, attachments: [big] }),
      400,
      'ATTACHMENT_TOO_LARGE',
    );
    expect(refused.error.message).toBe(
      'attachments[0] (image/png, 2.9 KB) is larger than the 1000 bytes limit of image files on imessage and the 2 KB limit of image files on sms',
    );

    // 1500 bytes: too large for imessage (1000), fine for sms (2000): imessage is skipped.
    const id = await t.sendOk({
      to: IMESSAGE_CONTACT,
      attachments: [{ data: pngOf(1500).toString('base64') }],
    });
    const message = await t.waitForStatus(id, 'delivered', 'failed');
    expect(message).toMatchObject({ status: 'delivered', channel: 'sms' });
    const fallback = t.events.find(
      (event) =>
        event.type === 'message.fallback' &&
        (event.data as { messageId?: string }).messageId === id,
    );
    expect(fallback && 'data' in fallback ? fallback.data : undefined).toMatchObject({
      fromChannel: 'imessage',
      toChannel: 'sms',
      reason: 'send_failed',
    });
  });

  it('refuses mediaLimits that are not positive integers when an instance is configured', async () => {
    const testApp = await buildSimulatorTestApp();
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/admin/v1/instances',
      headers: { authorization: `Bearer ${testApp.config.adminToken}` },
      payload: {
        name: 'bad',
        provider: 'simulator',
        channels: ['imessage'],
        config: { mediaLimits: { imessageMaxBytes: 0 } },
      },
    });
    const failure = expectFailure(response, 400, 'VALIDATION_ERROR');
    expect(failure.error.message).toContain('mediaLimits.imessageMaxBytes');
  });
});

describe('size limits at fetch time, when only the fetch can tell', () => {
  it('fails a URL attachment over the channel’s limit with message.failed ATTACHMENT_TOO_LARGE', async () => {
    const t = await appWithLimits({ imessageMaxBytes: 4000 });
    served.set('/big.png', pngOf(5000));
    const id = await t.sendOk({
      to: IMESSAGE_CONTACT,
      routing: { preference: ['imessage'], fallback: false },
      attachments: [{ url: `${origin}/big.png` }],
    });
    const failed = await t.waitForStatus(id, 'failed');
    expect(failed.errorCode).toBe('ATTACHMENT_TOO_LARGE');
    expect(failed.errorMessage).toBe(
      'attachments[0] is larger than the 3.9 KB limit of files on imessage',
    );
    expect(t.eventTypes(id)).toEqual(['message.queued', 'message.failed']);
  });

  it('stops reading a body that never ends at the limit', async () => {
    const t = await appWithLimits({ imessageMaxBytes: MB });
    const before = endlessBytesSent;
    const id = await t.sendOk({
      to: IMESSAGE_CONTACT,
      routing: { preference: ['imessage'], fallback: false },
      attachments: [{ url: `${origin}/forever.mp4` }],
    });
    const failed = await t.waitForStatus(id, 'failed');
    expect(failed.errorCode).toBe('ATTACHMENT_TOO_LARGE');
    // What the server pushed before the fetch stopped: the cap plus socket buffers, not more.
    expect(endlessBytesSent - before).toBeLessThan(8 * MB);
  });

  it('checks content.mediaUrls against the channel’s image limit (sms: 5 MB by default)', async () => {
    const t = await buildMessagingApp({ env: LOCAL_FILES });
    served.set('/huge.jpg', pngOf(5 * MB + 10));
    served.set('/small.jpg', pngOf(10_000));
    const id = await t.sendOk({
      to: IMESSAGE_CONTACT,
      routing: { preference: ['sms'], fallback: false },
      content: { mediaUrls: [`${origin}/small.jpg`, `${origin}/huge.jpg`] },
    });
    const failed = await t.waitForStatus(id, 'failed');
    expect(failed.errorCode).toBe('ATTACHMENT_TOO_LARGE');
    expect(failed.errorMessage).toBe(
      'content.mediaUrls[1] is larger than the 5 MB limit of images on sms',
    );
  });

  it('refuses content.mediaUrls whose bytes are not an image, whatever the URL says (MEDIA_NOT_AN_IMAGE)', async () => {
    const t = await buildMessagingApp({ env: LOCAL_FILES });
    served.set('/photo', pngOf(1_000));
    served.set('/small.jpg', pngOf(10_000));
    // A PDF behind an extension-less URL, and one posing as a JPEG.
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
    served.set('/document', pdf);
    served.set('/scan.jpg', pdf);
    const id = await t.sendOk({
      to: IMESSAGE_CONTACT,
      routing: { preference: ['imessage'], fallback: false },
      content: { text: 'Your receipts', mediaUrls: [`${origin}/photo`, `${origin}/document`] },
    });
    const failed = await t.waitForStatus(id, 'failed');
    expect(failed.errorCode).toBe('MEDIA_NOT_AN_IMAGE');
    expect(failed.errorMessage).toBe(
      'content.mediaUrls[1] serves application/pdf, not a JPEG, PNG, GIF or WebP image; send other files with attachments[]',
    );
    expect(t.eventTypes(id)).not.toContain('message.sent');

    const named = await t.sendOk({
      to: IMESSAGE_CONTACT,
      routing: { preference: ['sms'], fallback: false },
      content: { mediaUrls: [`${origin}/scan.jpg`] },
    });
    expect((await t.waitForStatus(named, 'failed')).errorCode).toBe('MEDIA_NOT_AN_IMAGE');
    // Images by their bytes go out, with or without an extension.
    const images = await t.sendOk({
      to: IMESSAGE_CONTACT,
      routing: { preference: ['imessage'], fallback: false },
      content: { mediaUrls: [`${origin}/photo`, `${origin}/small.jpg`] },
    });
    await t.waitForStatus(images, 'delivered', 'read');
  });

  it('converts a fetched voice memo and records its real size and type', async () => {
    const t = await buildMessagingApp({ env: LOCAL_FILES });
    served.set('/memo.mp3', await samples.sample('wav'));
    const id = await t.sendOk({
      to: WHATSAPP_CONTACT,
      routing: { preference: ['whatsapp'], fallback: false },
      attachments: [{ url: `${origin}/memo.mp3`, isAudioMessage: true }],
    });
    // The conversion is written when the accepted send is recorded, which `sent` can precede.
    const message = await t.waitFor(
      id,
      (m) =>
        m.status === 'failed' ||
        (!['queued', 'pending'].includes(m.status) && m.attachments[0]?.conversion !== undefined),
      20_000,
    );
    expect(message.status).not.toBe('failed');
    expect(message.attachments[0]).toMatchObject({
      mimeType: 'audio/wav',
      totalBytes: (await samples.sample('wav')).length,
      conversion: { to: { mimeType: 'audio/ogg', codecs: ['opus'] } },
    });
  });

  it('hands a URL it cannot fetch to the upstream as it is, unless it must be converted', async () => {
    const t = await buildMessagingApp({ env: LOCAL_FILES });
    const plain = await t.sendOk({
      to: IMESSAGE_CONTACT,
      attachments: [{ url: `${origin}/missing.pdf` }],
    });
    expect((await t.waitForStatus(plain, 'delivered', 'read', 'failed')).status).not.toBe('failed');
    const memo = await t.sendOk({
      to: WHATSAPP_CONTACT,
      routing: { preference: ['whatsapp'], fallback: false },
      attachments: [{ url: `${origin}/missing.wav`, isAudioMessage: true }],
    });
    const failed = await t.waitForStatus(memo, 'failed');
    expect(failed.errorCode).toBe('MEDIA_CONVERSION_FAILED');
    expect(failed.errorMessage).toContain('(HTTP 404)');
    expect(bodyOf<{ data: unknown }>(await t.request('GET', `/v1/messages/${memo}`))).toBeTruthy();
  });
});
