import type { ProviderInboundMessageEvent } from '@switchboard/provider-kit';
import { describe, expect, it } from 'vitest';
import { decodeInboundEvent, encodeInboundEvent } from './inbound-event-codec';

describe('the codec of kept inbound events', () => {
  it('reads back the same event, dates and attachment bytes included', () => {
    const event: ProviderInboundMessageEvent = {
      kind: 'message.inbound',
      channel: 'whatsapp',
      occurredAt: new Date('2026-12-02T05:00:00.123Z'),
      externalId: 'ABC',
      from: '14155550111@s.whatsapp.net',
      to: '14155550100@s.whatsapp.net',
      isGroup: false,
      text: 'hi',
      attachments: [
        { mimeType: 'image/jpeg', content: { kind: 'bytes', data: new Uint8Array([1, 2, 255]) } },
        {
          mimeType: 'image/png',
          content: { kind: 'url', url: 'http://127.0.0.1/a', headers: { a: 'b' } },
        },
      ],
    };
    const decoded = decodeInboundEvent(encodeInboundEvent(event));
    expect(decoded).toEqual(event);
    expect((decoded as ProviderInboundMessageEvent).occurredAt).toBeInstanceOf(Date);
  });
});
