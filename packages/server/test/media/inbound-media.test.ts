import type { Message, SandboxInboundMessageResult } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import {
  buildChatApp,
  type ChatTestApp,
  defined,
  IMESSAGE_CONTACT,
  OWN_NUMBER,
} from '../chats/chat-test-app';
import { mediaSamples } from '../support/media-samples';

const samples = mediaSamples();

/** A contact sends `files` on imessage; answers what the sandbox says the message became. */
function receive(
  t: ChatTestApp,
  files: Array<{ data: Buffer; mimeType?: string; filename?: string }>,
): Promise<SandboxInboundMessageResult> {
  return t.acme.ok<SandboxInboundMessageResult>('POST', '/v1/sandbox/inbound-messages', {
    channel: 'imessage',
    from: IMESSAGE_CONTACT,
    to: OWN_NUMBER,
    attachments: files.map((file) => ({ ...file, data: file.data.toString('base64') })),
  });
}

/** The bytes and type a signed download URL serves. */
async function download(t: ChatTestApp, url: string) {
  const { pathname, search } = new URL(url);
  const response = await t.app.inject({ url: `${pathname}${search}` });
  expect(response.statusCode).toBe(200);
  return { type: response.headers['content-type'], data: response.rawPayload };
}

describe('inbound voice notes and videos', () => {
  it('are stored as they came, under the type their bytes prove, with no copies by default', async () => {
    const t = await buildChatApp();
    const caf = await samples.sample('cafOpus');
    const received = await receive(t, [
      { data: caf, mimeType: 'audio/mpeg', filename: 'Audio Message.caf' },
    ]);
    const attachment = defined(received.attachments[0], 'attachment');
    expect(attachment).toMatchObject({ mimeType: 'audio/x-caf', totalBytes: caf.length });
    expect(attachment).not.toHaveProperty('renditions');
    const stored = await download(t, defined(attachment.downloadUrl, 'downloadUrl'));
    expect(stored.type).toBe('audio/x-caf');
    expect(stored.data.equals(caf)).toBe(true);
  });

  it('get a browser-playable copy with INBOUND_MEDIA_RENDITIONS: AAC in M4A, H.264 in MP4', async () => {
    const t = await buildChatApp({ env: { INBOUND_MEDIA_RENDITIONS: 'true' } });
    const caf = await samples.sample('cafOpus');
    const mov = await samples.sample('movH264');
    const webm = await samples.sample('webmVp9');
    const photo = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    const received = await receive(t, [
      { data: caf, filename: 'Audio Message.caf' },
      { data: mov, filename: 'IMG_0001.MOV' },
      { data: webm, filename: 'clip.webm' },
      { data: photo, filename: 'dot.png' },
    ]);
    const [voice, iphoneVideo, webVideo, image] = received.attachments;
    expect(voice?.mimeType).toBe('audio/x-caf');
    expect(voice?.renditions).toEqual([
      { mimeType: 'audio/mp4', totalBytes: expect.any(Number), downloadUrl: expect.any(String) },
    ]);
    const m4a = await download(t, defined(voice?.renditions?.[0]?.downloadUrl, 'rendition'));
    expect(m4a.type).toBe('audio/mp4');
    expect(await samples.codecs(m4a.data)).toEqual(['aac']);
    // The original is untouched.
    expect((await download(t, defined(voice?.downloadUrl, 'original'))).data.equals(caf)).toBe(
      true,
    );

    expect(iphoneVideo?.mimeType).toBe('video/quicktime');
    const remuxed = await download(t, defined(iphoneVideo?.renditions?.[0]?.downloadUrl, 'mov'));
    expect(remuxed.type).toBe('video/mp4');
    expect(await samples.codecs(remuxed.data)).toEqual(['h264', 'aac']);

    const transcoded = await download(t, defined(webVideo?.renditions?.[0]?.downloadUrl, 'webm'));
    expect(await samples.codecs(transcoded.data)).toEqual(['h264', 'aac']);
    expect(image).not.toHaveProperty('renditions');

    // The Message resource lists the copies too, signed afresh at each read.
    const message = await t.acme.ok<Message>('GET', `/v1/messages/${received.messageId}`);
    expect(message.attachments[0]?.renditions?.[0]).toMatchObject({ mimeType: 'audio/mp4' });
    expect(message.attachments[1]?.renditions?.[0]).toMatchObject({ mimeType: 'video/mp4' });
    expect(message.attachments[3]).not.toHaveProperty('renditions');
  });

  it('keep the original alone when no copy can be made (no encoder)', async () => {
    const t = await buildChatApp({
      env: { INBOUND_MEDIA_RENDITIONS: 'true', FFMPEG_PATH: '/nonexistent/ffmpeg' },
    });
    const caf = await samples.sample('cafOpus');
    const received = await receive(t, [{ data: caf, filename: 'Audio Message.caf' }]);
    expect(received.attachments[0]).toMatchObject({ mimeType: 'audio/x-caf' });
    expect(received.attachments[0]).not.toHaveProperty('renditions');
  });
});
