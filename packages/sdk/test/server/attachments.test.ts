import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  PermissionDeniedError,
  type Switchboard,
  SwitchboardError,
} from '../../src/index';
import { clientFor } from '../support/customers';
import { collectEvents, ofType } from '../support/event-collector';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

const OWNED = '+14155550100';
const CONTACT = '+12125550104';
// The eight bytes of the PNG signature: a tiny file whose every byte is outside ASCII text rules.
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PDF = new TextEncoder().encode('%PDF-1.7 not really');

let server: SwitchboardServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startServer({ numbers: [OWNED] });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(() => server.close());

/** A contact sends `files`; resolves with the attachments of its `message.inbound` event. */
async function receive(
  files: { data: Uint8Array; mimeType?: string; filename?: string }[],
): Promise<{ messageId: string; downloadUrls: string[] }> {
  const stream = await collectEvents(client);
  try {
    const sent = await client.sandbox.inboundMessage({
      channel: 'imessage',
      from: CONTACT,
      to: OWNED,
      attachments: files.map(({ data, ...rest }) => ({
        data: Buffer.from(data).toString('base64'),
        ...rest,
      })),
    });
    const event = await stream.waitFor(
      ofType('message.inbound', (e) => e.data.messageId === sent.messageId),
    );
    const downloadUrls = event.data.attachments.map((attachment) => {
      if (attachment.downloadUrl === undefined) throw new Error(`not stored: ${attachment.note}`);
      return attachment.downloadUrl;
    });
    return { messageId: sent.messageId, downloadUrls };
  } finally {
    await stream.close();
  }
}

describe('client.attachments.download against the real server', () => {
  it('downloads the bytes behind the downloadUrl of a message.inbound event', async () => {
    const { messageId, downloadUrls } = await receive([
      { data: PNG, mimeType: 'image/png', filename: 'plage été.png' },
      { data: PDF, mimeType: 'application/pdf' },
    ]);
    const [pngUrl, pdfUrl] = downloadUrls;
    if (pngUrl === undefined || pdfUrl === undefined) throw new Error('two attachments expected');

    const png = await client.attachments.download(pngUrl);
    expect(png).toEqual({ data: PNG, contentType: 'image/png', filename: 'plage été.png' });
    // A file the contact gave no name has none.
    const pdf = await client.attachments.download(new URL(pdfUrl));
    expect(pdf).toEqual({ data: PDF, contentType: 'application/pdf', filename: null });

    // The URL's parts work too, and a fresh URL from the message downloads the same bytes.
    const url = new URL(pngUrl);
    const byParts = await client.attachments.download({
      id: decodeURIComponent(url.pathname.split('/').pop() ?? ''),
      expires: Number(url.searchParams.get('expires')),
      signature: url.searchParams.get('signature') ?? '',
    });
    expect(byParts.data).toEqual(PNG);
    const message = await client.messages.get(messageId);
    const fresh = message.attachments[0]?.downloadUrl;
    if (fresh === null || fresh === undefined) throw new Error('no fresh downloadUrl');
    const { data, requestId, headers } = await client.attachments.download(fresh).withResponse();
    expect(data.data).toEqual(PNG);
    expect(requestId).toEqual(expect.any(String));
    expect(headers.get('cache-control')).toContain('no-store');
  });

  it('needs no API key', async () => {
    const { downloadUrls } = await receive([{ data: PNG, mimeType: 'image/png' }]);
    const anonymous = clientFor(server.baseUrl, '');
    const downloaded = await anonymous.attachments.download(downloadUrls[0] ?? '');
    expect(downloaded.data).toEqual(PNG);
  });

  it('throws PermissionDeniedError for a tampered URL', async () => {
    const { downloadUrls } = await receive([{ data: PNG, mimeType: 'image/png' }]);
    const url = new URL(downloadUrls[0] ?? '');
    const signature = url.searchParams.get('signature') ?? '';
    const flipped = (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1);
    url.searchParams.set('signature', flipped);

    const error = await client.attachments.download(url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'FORBIDDEN', requestId: expect.any(String) });

    // A later expiry under the same signature is tampering too.
    url.searchParams.set('signature', signature);
    url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    await expect(client.attachments.download(url)).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('refuses what is not a download URL before sending anything', async () => {
    const error = await client.attachments
      .download(`${server.baseUrl}/v1/messages/msg_1?expires=1&signature=00`)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect(error).toMatchObject({ status: undefined, code: undefined });
    expect((error as Error).message).toMatch(/Not an attachment download URL/);
    // A malformed signature reaches the server, which answers a validation error.
    await expect(
      client.attachments.download({ id: 'att_x', expires: 1, signature: 'nothex' }),
    ).rejects.toBeInstanceOf(BadRequestError);
  });
});
