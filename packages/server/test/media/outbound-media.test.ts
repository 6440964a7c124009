import type { Message } from '@switchboard/contract';
import type { ProviderOutboundAttachment } from '@switchboard/provider-kit';
import { describe, expect, it, vi } from 'vitest';
import { buildMessagingApp, type MessagingApp } from '../messages/messaging-fixture';
import { type ProviderCalls, recordingRegistry } from '../messages/recording-providers';
import { expectFailure } from '../support/envelope-assertions';
import { mediaSamples, recipe } from '../support/media-samples';
import { bodyOf } from '../support/test-app';

/** Reachable on imessage (and sms), not on whatsapp. */
const IMESSAGE_CONTACT = '+14155550199';
/** Reachable on whatsapp (and sms), not on imessage. */
const WHATSAPP_CONTACT = '+14155550160';

const samples = mediaSamples();

/** A test app whose provider calls are recorded. */
async function mediaApp(env: Record<string, string> = {}) {
  const { registry, calls } = recordingRegistry();
  const t = await buildMessagingApp({ env, overrides: { providerRegistry: registry } });
  return { t, calls };
}

/**
 * Sends one attachment to `channel` and waits until the message settles; with `converted`, also
 * until the conversion is on the attachment (unless the message failed). The conversion is written
 * when the accepted send is recorded, which the upstream's `sent` status update can precede.
 */
async function sendFile(
  t: MessagingApp,
  channel: 'imessage' | 'whatsapp' | 'sms',
  attachment: Record<string, unknown>,
  { converted = false }: { converted?: boolean } = {},
): Promise<Message> {
  const id = await t.sendOk({
    to: channel === 'whatsapp' ? WHATSAPP_CONTACT : IMESSAGE_CONTACT,
    routing: { preference: [channel], fallback: false },
    attachments: [attachment],
  });
  return t.waitFor(
    id,
    (message) =>
      message.status !== 'queued' &&
      message.status !== 'pending' &&
      (!converted ||
        message.status === 'failed' ||
        message.attachments[0]?.conversion !== undefined),
    20_000,
  );
}

function base64(data: Buffer): string {
  return data.toString('base64');
}

/** The file the provider was handed for a message. */
function handed(calls: ProviderCalls, messageId: string): ProviderOutboundAttachment {
  const send = calls.sends.find((request) => request.messageId === messageId);
  const attachment = send?.attachments?.[0];
  if (!attachment) throw new Error(`no attachment was sent for ${messageId}`);
  return attachment;
}

function bytesOf(attachment: ProviderOutboundAttachment): Uint8Array {
  if (attachment.source.kind !== 'bytes') throw new Error('expected bytes');
  return attachment.source.data;
}

describe('voice memos arrive in the format each channel plays natively (send rule 7)', () => {
  it.each([
    ['WAV', 'wav', 'audio/wav', ['pcm_s16le']],
    ['M4A', 'm4a', 'audio/mp4', ['aac']],
  ] as const)(
    'a %s memo becomes Opus in CAF on imessage and Opus in Ogg on whatsapp',
    async (_name, sample, type, codecs) => {
      const { t, calls } = await mediaApp();
      const data = base64(await samples.sample(sample));
      const memo = { data, filename: `memo.${sample}`, isAudioMessage: true };

      const onImessage = await sendFile(t, 'imessage', memo, { converted: true });
      expect(onImessage.status).not.toBe('failed');
      const caf = handed(calls, onImessage.id);
      expect(caf).toMatchObject({
        mimeType: 'audio/x-caf',
        filename: 'memo.caf',
        isAudioMessage: true,
      });
      const cafProbe = await samples.probe(bytesOf(caf));
      expect(cafProbe.formats).toContain('caf');
      expect(cafProbe.streams.map((stream) => stream.codec)).toEqual(['opus']);
      expect(onImessage.attachments[0]).toMatchObject({
        mimeType: type,
        isAudioMessage: true,
        conversion: {
          channel: 'imessage',
          action: 'transcoded',
          from: { mimeType: type, codecs },
          to: { mimeType: 'audio/x-caf', codecs: ['opus'], totalBytes: bytesOf(caf).byteLength },
        },
      });

      const onWhatsapp = await sendFile(t, 'whatsapp', memo, { converted: true });
      expect(onWhatsapp.status).not.toBe('failed');
      const ogg = handed(calls, onWhatsapp.id);
      expect(ogg).toMatchObject({
        mimeType: 'audio/ogg',
        filename: 'memo.ogg',
        isAudioMessage: true,
      });
      const oggProbe = await samples.probe(bytesOf(ogg));
      expect(oggProbe.formats).toContain('ogg');
      expect(oggProbe.streams.map((stream) => stream.codec)).toEqual(['opus']);
      expect(onWhatsapp.attachments[0]?.conversion).toMatchObject({
        channel: 'whatsapp',
        to: { mimeType: 'audio/ogg', codecs: ['opus'] },
      });
    },
  );

  it('sends the preferred formats as they are: MP3 and Opus-in-CAF on imessage, Opus-in-Ogg on whatsapp', async () => {
    const { t, calls } = await mediaApp();
    for (const [channel, sample] of [
      ['imessage', 'mp3'],
      ['imessage', 'cafOpus'],
      ['whatsapp', 'oggOpus'],
    ] as const) {
      const bytes = await samples.sample(sample);
      const message = await sendFile(t, channel, { data: base64(bytes), isAudioMessage: true });
      expect(message.status, sample).not.toBe('failed');
      expect(Buffer.from(bytesOf(handed(calls, message.id))).equals(bytes), sample).toBe(true);
      expect(message.attachments[0], sample).not.toHaveProperty('conversion');
    }
  });

  it('converts a CAF memo that is not Opus, and leaves audio without the flag (and sms memos) alone', async () => {
    const { t, calls } = await mediaApp();
    const aacCaf = await sendFile(
      t,
      'imessage',
      { data: base64(await samples.sample('cafAlac')), isAudioMessage: true },
      { converted: true },
    );
    expect(aacCaf.attachments[0]?.conversion?.from).toEqual({
      mimeType: 'audio/x-caf',
      codecs: ['alac'],
    });
    const wav = await samples.sample('wav');
    const plainFile = await sendFile(t, 'whatsapp', { data: base64(wav), filename: 'tone.wav' });
    expect(Buffer.from(bytesOf(handed(calls, plainFile.id))).equals(wav)).toBe(true);
    const smsMemo = await sendFile(t, 'sms', { data: base64(wav), isAudioMessage: true });
    expect(Buffer.from(bytesOf(handed(calls, smsMemo.id))).equals(wav)).toBe(true);
    expect(smsMemo.attachments[0]).not.toHaveProperty('conversion');
  });

  it('believes the bytes, not the declared type: a ".mp3" that is a WAV is converted', async () => {
    const { t, calls } = await mediaApp();
    const message = await sendFile(
      t,
      'imessage',
      {
        data: base64(await samples.sample('wav')),
        mimeType: 'audio/mpeg',
        filename: 'memo.mp3',
        isAudioMessage: true,
      },
      { converted: true },
    );
    expect(message.attachments[0]).toMatchObject({
      mimeType: 'audio/wav',
      conversion: { from: { mimeType: 'audio/wav' }, to: { mimeType: 'audio/x-caf' } },
    });
    expect(handed(calls, message.id)).toMatchObject({
      mimeType: 'audio/x-caf',
      filename: 'memo.caf',
    });
  });

  it('refuses a voice memo whose bytes are not audio', async () => {
    const { t } = await mediaApp();
    const png = await samples.make(
      'frame.png',
      recipe('-f lavfi -i testsrc=size=8x8:duration=1 -frames:v 1 -f image2'),
    );
    const refused = expectFailure(
      await t.send({
        to: IMESSAGE_CONTACT,
        attachments: [{ data: base64(png), mimeType: 'audio/mpeg', isAudioMessage: true }],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(refused.error.message).toContain('attachments[0]');
    expect(refused.error.message).toContain('image/png');
  });

  it('converts identical bytes once, however many messages carry them', async () => {
    const { t, calls } = await mediaApp();
    const availability = await t.app.services.mediaEngine.converter();
    if (!availability.available) throw new Error(availability.reason);
    const convert = vi.spyOn(availability.converter, 'convert');
    const memo = { data: base64(await samples.sample('wav')), isAudioMessage: true };
    const first = await sendFile(t, 'whatsapp', memo);
    const second = await sendFile(t, 'whatsapp', memo);
    expect(convert).toHaveBeenCalledTimes(1);
    expect(handed(calls, first.id).publicUrl).toContain('/v1/attachments/conv_');
    expect(new URL(handed(calls, second.id).publicUrl ?? '').pathname).toBe(
      new URL(handed(calls, first.id).publicUrl ?? '').pathname,
    );
    // The converted bytes are served at their signed URL, without an API key.
    const url = new URL(handed(calls, first.id).publicUrl ?? '');
    const download = await t.app.inject({ url: `${url.pathname}${url.search}` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('audio/ogg');
    expect(download.rawPayload.equals(Buffer.from(bytesOf(handed(calls, first.id))))).toBe(true);
  });
});

describe('video arrives as the channel plays it (send rule 8)', () => {
  it('transcodes VP9/WebM to H.264 and AAC in MP4 for whatsapp', async () => {
    const { t, calls } = await mediaApp();
    const message = await sendFile(
      t,
      'whatsapp',
      { data: base64(await samples.sample('webmVp9')), filename: 'clip.webm' },
      { converted: true },
    );
    expect(message.status).not.toBe('failed');
    const mp4 = handed(calls, message.id);
    expect(mp4).toMatchObject({ mimeType: 'video/mp4', filename: 'clip.mp4' });
    const probe = await samples.probe(bytesOf(mp4));
    expect(probe.formats).toContain('mp4');
    expect(probe.streams.map((stream) => stream.codec)).toEqual(['h264', 'aac']);
    expect(message.attachments[0]?.conversion).toMatchObject({
      action: 'transcoded',
      from: { mimeType: 'video/webm', codecs: ['vp9', 'opus'] },
      to: { mimeType: 'video/mp4', codecs: ['h264', 'aac'] },
    });
  });

  it('repackages H.264 in Matroska into MP4 without re-encoding it', async () => {
    const { t, calls } = await mediaApp();
    const mkv = await samples.sample('mkvH264');
    const message = await sendFile(
      t,
      'whatsapp',
      { data: base64(mkv), filename: 'clip.mkv' },
      { converted: true },
    );
    const mp4 = bytesOf(handed(calls, message.id));
    expect(await samples.codecs(mp4)).toEqual(['h264', 'aac']);
    expect((await samples.probe(mp4)).formats).toContain('mp4');
    expect(message.attachments[0]?.conversion).toMatchObject({
      action: 'repackaged',
      from: { mimeType: 'video/matroska', codecs: ['h264', 'aac'] },
    });
  });

  it('sends H.264/AAC MP4 to whatsapp, and any MP4, MOV or WebM to imessage, as they are', async () => {
    const { t, calls } = await mediaApp();
    for (const [channel, sample] of [
      ['whatsapp', 'mp4H264'],
      ['imessage', 'movH264'],
      ['imessage', 'webmVp9'],
    ] as const) {
      const bytes = await samples.sample(sample);
      const message = await sendFile(t, channel, { data: base64(bytes) });
      expect(Buffer.from(bytesOf(handed(calls, message.id))).equals(bytes), sample).toBe(true);
      expect(message.attachments[0], sample).not.toHaveProperty('conversion');
    }
  });
});

describe('transcoding is off the request path and fails clearly', () => {
  it('keeps the message queued while it converts, and fails it (the pool recovering) when a conversion times out', async () => {
    const { t } = await mediaApp({ MEDIA_TRANSCODE_TIMEOUT_MS: '1000' });
    // 10 s of 1280x720 MPEG-4 part 2: quick to make, over 2 s to encode to H.264 on one core.
    const slow = await samples.make(
      'slow.mkv',
      recipe(
        '-f lavfi -i testsrc=size=1280x720:rate=30:duration=10 -c:v mpeg4 -q:v 10 -f matroska',
      ),
    );
    const response = await t.send({
      to: WHATSAPP_CONTACT,
      routing: { preference: ['whatsapp'], fallback: false },
      attachments: [{ data: base64(slow), filename: 'slow.mkv' }],
    });
    expect(response.statusCode).toBe(202);
    const id = bodyOf<{ data: { id: string } }>(response).data.id;
    expect((await t.get(id)).status).toBe('queued');
    const failed = await t.waitForStatus(id, 'failed');
    expect(failed.errorCode).toBe('MEDIA_CONVERSION_FAILED');
    expect(failed.errorMessage).toContain('attachments[0]');
    expect(failed.errorMessage).toContain('did not finish within 1 s');
    expect(t.eventTypes(id)).toEqual(['message.queued', 'message.failed']);

    const after = await sendFile(t, 'whatsapp', {
      data: base64(await samples.sample('wav')),
      isAudioMessage: true,
    });
    expect(after.status).not.toBe('failed');
  });

  it('without an encoder, fails only the sends that need one, and says so in /health', async () => {
    const { t, calls } = await mediaApp({ FFMPEG_PATH: '/nonexistent/ffmpeg' });
    const health = bodyOf<{ checks: { transcoding: { status: string; warnings: string[] } } }>(
      await t.app.inject({ url: '/health' }),
    );
    expect(health.checks.transcoding.status).toBe('unavailable');
    expect(health.checks.transcoding.warnings[0]).toContain('/nonexistent/ffmpeg');

    const memo = await sendFile(t, 'whatsapp', {
      data: base64(await samples.sample('wav')),
      isAudioMessage: true,
    });
    expect(memo.status).toBe('failed');
    expect(memo.errorCode).toBe('MEDIA_CONVERSION_FAILED');
    expect(memo.errorMessage).toContain('must be converted to Opus in Ogg for whatsapp');
    expect(memo.errorMessage).toContain('transcoding is unavailable');
    expect(calls.sends.filter((send) => send.messageId === memo.id)).toEqual([]);

    const mp3 = await sendFile(t, 'imessage', {
      data: base64(await samples.sample('mp3')),
      isAudioMessage: true,
    });
    expect(mp3.status).not.toBe('failed');
    const text = await t.sendOk({ to: IMESSAGE_CONTACT, content: { text: 'still fine' } });
    expect((await t.waitForStatus(text, 'delivered', 'read')).status).not.toBe('failed');
  });
});

describe('a server stopping while files are prepared', () => {
  it('stops without an unhandled rejection from the preparations cut short', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', record);
    try {
      const { t } = await mediaApp();
      const data = base64(await samples.sample('wav'));
      for (let index = 0; index < 4; index += 1) {
        await t.sendOk({
          to: IMESSAGE_CONTACT,
          routing: { preference: ['imessage'], fallback: false },
          attachments: [{ data, filename: 'memo.wav', isAudioMessage: true }],
        });
      }
      // Stopped while the memos are read and converted: the store closes under them.
      await t.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
