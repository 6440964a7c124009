import type { MessageList } from '@switchboard/contract';
import type { ProviderInboundMessageEvent } from '@switchboard/provider-kit';
import { describe, expect, it } from 'vitest';
import type { InboundContext } from '../../src/providers/provider-hub';
import { buildChatApp, IMESSAGE_CONTACT, OWN_NUMBER } from '../chats/chat-test-app';
import { createInstance } from '../support/admin-helpers';

function inboundEvent(externalId: string): ProviderInboundMessageEvent {
  return {
    kind: 'message.inbound',
    channel: 'imessage',
    occurredAt: new Date('2026-01-15T12:00:00Z'),
    externalId,
    from: IMESSAGE_CONTACT,
    to: OWN_NUMBER,
    isGroup: false,
    text: 'Are we still on?',
    attachments: [
      {
        mimeType: 'text/plain',
        filename: 'a.txt',
        content: { kind: 'bytes', data: new Uint8Array([104, 105]) },
      },
    ],
  };
}

describe('the inbound message path', () => {
  it('records a redelivered provider event once (events arrive at least once)', async () => {
    const t = await buildChatApp();
    const context: InboundContext = {
      instanceId: t.instanceId,
      instanceName: 'simulator',
      provider: 'simulator',
      channels: ['imessage', 'sms', 'whatsapp'],
    };
    const receiver = t.app.services.inboundMessages;
    const first = await receiver.receive(inboundEvent('GUID-1'), context);
    const again = await receiver.receive(inboundEvent('GUID-1'), context);
    expect(again?.message.id).toBe(first?.message.id);
    expect(again?.attachments).toEqual([
      expect.objectContaining({
        filename: 'a.txt',
        totalBytes: 2,
        downloadUrl: expect.any(String),
      }),
    ]);
    const list = await t.acme.ok<MessageList>('GET', '/v1/messages');
    expect(list.messages).toHaveLength(1);
    expect(t.acme.events.filter((event) => event.type === 'message.inbound')).toHaveLength(1);
  });

  it('drops events an instance reports for a number it does not serve', async () => {
    const t = await buildChatApp();
    const other = await createInstance(t.app, 'other-instance');
    const result = await t.app.services.inboundMessages.receive(inboundEvent('GUID-2'), {
      instanceId: other.id,
      instanceName: 'other-instance',
      provider: 'simulator',
      channels: ['imessage'],
    });
    expect(result).toBeUndefined();
    expect((await t.acme.ok<MessageList>('GET', '/v1/messages')).messages).toEqual([]);
    expect(t.acme.events).toEqual([]);
  });
});
