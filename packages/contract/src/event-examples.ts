import type { EventType } from './event-types';

// Realistic samples of every event, used as the OpenAPI examples of the event components. They are
// typed loosely on purpose: typing them with the event schemas would make the schemas' types
// depend on their own examples (a cycle). events.test.ts parses each with `SwitchboardEvent`
// instead, so the documentation cannot drift from the contract.

const MESSAGE_ID = 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e';
const INBOUND_ID = 'msg_01936f1d-02b4-7a61-8c3e-5b6a7c8d9e0f';
const CONVERSATION_ID = '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f';
const INSTANCE = '+14155550100';
const CONTACT = '+14155550123';
const GROUP_CHAT = 'iMessage;+;chat493027156834';
const AT = '2026-11-21T10:00:00.000Z';

const lifecycle = {
  messageId: MESSAGE_ID,
  externalMessageId: 'p:0/5B7C1E2A-9D4F-4E8B-A1C3-6F2D8E9B0A47',
  from: INSTANCE,
  to: CONTACT,
  text: 'Your order #1842 has shipped 📦',
  channel: 'imessage',
  metadata: { orderId: 'ord_1842' },
} as const;

/** A sample event, keyed by its type. */
type EventExample<K extends EventType> = { readonly type: K } & Readonly<Record<string, unknown>>;

/** A sample of every event type, exactly as a receiver gets it. */
export const EVENT_EXAMPLES: { readonly [K in EventType]: EventExample<K> } = {
  'message.queued': {
    id: 'evt_0193a8f3-0001-7a00-8000-000000000001',
    type: 'message.queued',
    timestamp: AT,
    data: { ...lifecycle, externalMessageId: null, channel: null, status: 'queued' },
  },
  'message.sent': {
    id: 'evt_0193a8f3-0002-7a00-8000-000000000002',
    type: 'message.sent',
    timestamp: '2026-11-21T10:00:01.204Z',
    data: { ...lifecycle, status: 'sent' },
  },
  'message.delivered': {
    id: 'evt_0193a8f3-0003-7a00-8000-000000000003',
    type: 'message.delivered',
    timestamp: '2026-11-21T10:00:02.517Z',
    data: {
      messageId: MESSAGE_ID,
      externalMessageId: '3EB0C431D5F2A1B7E9C4',
      from: INSTANCE,
      conversationId: CONVERSATION_ID,
      text: 'The launch moved to Thursday 10:00.',
      channel: 'whatsapp',
      metadata: { campaign: 'launch-2026' },
      status: 'delivered',
      conversation: {
        id: CONVERSATION_ID,
        chatId: '120363041234567890@g.us',
        channel: 'whatsapp',
        isGroup: true,
        name: 'Launch crew',
        participants: [
          { handle: '14155550100@s.whatsapp.net', isPhoneResolved: true, admin: 'superadmin' },
          { handle: '14155550123@s.whatsapp.net', isPhoneResolved: true, admin: null },
          { handle: '208512345678901@lid', isPhoneResolved: false, admin: null },
        ],
      },
      sender: { address: INSTANCE, instanceName: 'support-whatsapp' },
    },
  },
  'message.read': {
    id: 'evt_0193a8f3-0004-7a00-8000-000000000004',
    type: 'message.read',
    timestamp: '2026-11-21T10:03:40.000Z',
    data: { ...lifecycle, status: 'read' },
  },
  'message.failed': {
    id: 'evt_0193a8f3-0005-7a00-8000-000000000005',
    type: 'message.failed',
    timestamp: '2026-11-21T10:00:31.000Z',
    data: {
      ...lifecycle,
      channel: 'sms',
      externalMessageId: 'SM8f2c0a9e4b7d41c3a6e5f2b1c0d9e8f7',
      status: 'failed',
      errorCode: 'PROVIDER_TIMEOUT',
      errorMessage: 'The carrier did not answer within 30 seconds',
    },
  },
  'message.fallback': {
    id: 'evt_0193a8f3-0006-7a00-8000-000000000006',
    type: 'message.fallback',
    timestamp: '2026-11-21T10:00:01.050Z',
    data: {
      ...lifecycle,
      externalMessageId: null,
      channel: 'sms',
      status: 'pending',
      fromChannel: 'imessage',
      toChannel: 'sms',
      reason: 'unavailable',
    },
  },
  'message.inbound': {
    id: 'evt_0193a8f3-0007-7a00-8000-000000000007',
    type: 'message.inbound',
    timestamp: '2026-11-21T10:05:12.000Z',
    data: {
      messageId: INBOUND_ID,
      externalMessageId: 'p:0/1A2B3C4D-5E6F-4A7B-8C9D-0E1F2A3B4C5D',
      from: CONTACT,
      to: INSTANCE,
      text: 'Thanks! Here is the photo of the damaged box.',
      channel: 'imessage',
      attachments: [
        {
          guid: 'at_0_1A2B3C4D-5E6F-4A7B-8C9D-0E1F2A3B4C5D',
          mimeType: 'image/jpeg',
          filename: 'IMG_0412.jpg',
          totalBytes: 184213,
          downloadUrl:
            'https://switchboard.example.com/v1/attachments/att_0193a8f4-1b2c-7d3e-8f4a-5b6c7d8e9f0a?expires=1795255512&signature=5d41402abc4b2a76b9719d911017c592',
        },
      ],
    },
  },
  'message.reaction': {
    id: 'evt_0193a8f3-0008-7a00-8000-000000000008',
    type: 'message.reaction',
    timestamp: '2026-11-21T10:06:00.000Z',
    data: {
      reaction: {
        type: 'love',
        targetMessageId: MESSAGE_ID,
        targetExternalId: 'p:0/5B7C1E2A-9D4F-4E8B-A1C3-6F2D8E9B0A47',
        content: 'Loved “Your order #1842 has shipped 📦”',
      },
      from: CONTACT,
      to: INSTANCE,
      channel: 'imessage',
    },
  },
  'message.audio_kept': {
    id: 'evt_0193a8f3-0009-7a00-8000-000000000009',
    type: 'message.audio_kept',
    timestamp: '2026-11-21T10:07:00.000Z',
    data: {
      externalMessageId: 'p:0/7C8D9E0F-1A2B-4C3D-9E4F-5A6B7C8D9E0F',
      targetMessageId: MESSAGE_ID,
      targetExternalId: 'p:0/5B7C1E2A-9D4F-4E8B-A1C3-6F2D8E9B0A47',
      from: CONTACT,
      to: INSTANCE,
      channel: 'imessage',
    },
  },
  'message.unsent': {
    id: 'evt_0193a8f3-000a-7a00-8000-00000000000a',
    type: 'message.unsent',
    timestamp: '2026-11-21T10:01:00.000Z',
    data: { ...lifecycle, status: 'unsent' },
  },
  'message.edited': {
    id: 'evt_0193a8f3-000b-7a00-8000-00000000000b',
    type: 'message.edited',
    timestamp: '2026-11-21T10:01:30.000Z',
    data: {
      ...lifecycle,
      text: 'Your order #1842 has shipped 📦 Track it at example.com/t/1842',
      previousText: lifecycle.text,
      status: 'delivered',
    },
  },
  'message.edit_failed': {
    id: 'evt_0193a8f3-000c-7a00-8000-00000000000c',
    type: 'message.edit_failed',
    timestamp: '2026-11-21T10:01:45.000Z',
    data: {
      ...lifecycle,
      status: 'delivered',
      attemptedText: 'Your order #1842 arrives tomorrow',
      errorCode: 'EDIT_FAILED',
      errorMessage: 'The recipient’s device does not support edits',
    },
  },
  'message.deleted': {
    id: 'evt_0193a8f3-000d-7a00-8000-00000000000d',
    type: 'message.deleted',
    timestamp: '2026-11-21T11:00:00.000Z',
    data: { ...lifecycle, status: 'read' },
  },
  'message.scheduled': {
    id: 'evt_0193a8f3-000e-7a00-8000-00000000000e',
    type: 'message.scheduled',
    timestamp: AT,
    data: {
      ...lifecycle,
      externalMessageId: null,
      channel: null,
      text: 'Reminder: your appointment is tomorrow at 9:00',
      status: 'scheduled',
    },
  },
  'message.schedule_cancelled': {
    id: 'evt_0193a8f3-000f-7a00-8000-00000000000f',
    type: 'message.schedule_cancelled',
    timestamp: '2026-11-21T12:00:00.000Z',
    data: {
      ...lifecycle,
      externalMessageId: null,
      channel: null,
      text: 'Reminder: your appointment is tomorrow at 9:00',
      status: 'cancelled',
    },
  },
  'typing.indicator': {
    id: 'evt_0193a8f3-0010-7a00-8000-000000000010',
    type: 'typing.indicator',
    timestamp: '2026-11-21T10:08:00.000Z',
    data: {
      chatId: '14155550123@s.whatsapp.net',
      from: CONTACT,
      to: INSTANCE,
      channel: 'whatsapp',
      status: 'start',
    },
  },
  'chat.participant.added': {
    id: 'evt_0193a8f3-0011-7a00-8000-000000000011',
    type: 'chat.participant.added',
    timestamp: '2026-11-21T10:09:00.000Z',
    data: {
      externalMessageId: 'p:0/0A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D',
      chatId: GROUP_CHAT,
      conversationId: CONVERSATION_ID,
      actor: CONTACT,
      to: INSTANCE,
      channel: 'imessage',
      participant: '+14155550124',
    },
  },
  'chat.participant.left': {
    id: 'evt_0193a8f3-0012-7a00-8000-000000000012',
    type: 'chat.participant.left',
    timestamp: '2026-11-21T10:10:00.000Z',
    data: {
      externalMessageId: 'p:0/1B2C3D4E-5F6A-4B7C-8D9E-0F1A2B3C4D5E',
      chatId: GROUP_CHAT,
      actor: '+14155550124',
      to: INSTANCE,
      channel: 'imessage',
      participant: '+14155550124',
    },
  },
  'chat.title.changed': {
    id: 'evt_0193a8f3-0013-7a00-8000-000000000013',
    type: 'chat.title.changed',
    timestamp: '2026-11-21T10:11:00.000Z',
    data: {
      externalMessageId: 'p:0/2C3D4E5F-6A7B-4C8D-9E0F-1A2B3C4D5E6F',
      chatId: GROUP_CHAT,
      actor: CONTACT,
      to: INSTANCE,
      channel: 'imessage',
      title: 'Launch crew 🚀',
    },
  },
  'chat.photo.changed': {
    id: 'evt_0193a8f3-0014-7a00-8000-000000000014',
    type: 'chat.photo.changed',
    timestamp: '2026-11-21T10:12:00.000Z',
    data: {
      externalMessageId: 'p:0/3D4E5F6A-7B8C-4D9E-8F0A-2B3C4D5E6F7A',
      chatId: GROUP_CHAT,
      actor: CONTACT,
      to: INSTANCE,
      channel: 'imessage',
    },
  },
  'facetime.incoming': {
    type: 'facetime.incoming',
    eventId: 'evt_0193a8f3-0015-7a00-8000-000000000015',
    callUuid: '6F1C2A9E-3B4D-4E5F-8A7B-9C0D1E2F3A4B',
    to: INSTANCE,
    isAudio: false,
    isVideo: true,
    caller: CONTACT,
    timestamp: 1795255200000,
  },
  'facetime.status_changed': {
    type: 'facetime.status_changed',
    eventId: 'evt_0193a8f3-0016-7a00-8000-000000000016',
    callUuid: '6F1C2A9E-3B4D-4E5F-8A7B-9C0D1E2F3A4B',
    to: INSTANCE,
    isAudio: false,
    isVideo: true,
    address: CONTACT,
    status: 'answered',
    isOutgoing: false,
  },
  'contact.opted_out': {
    id: 'evt_0193a8f3-0019-7a00-8000-000000000019',
    type: 'contact.opted_out',
    timestamp: AT,
    data: {
      from: INSTANCE,
      recipient: CONTACT,
      status: 'opted_out',
      source: 'keyword',
      keyword: 'STOP',
      channel: 'sms',
    },
  },
  'contact.opted_in': {
    id: 'evt_0193a8f3-0020-7a00-8000-000000000020',
    type: 'contact.opted_in',
    timestamp: AT,
    data: {
      from: INSTANCE,
      recipient: CONTACT,
      status: 'opted_in',
      source: 'keyword',
      keyword: 'START',
      channel: 'sms',
    },
  },
  'webhook.test': {
    id: 'evt_test_0193a8f3-0017-7a00-8000-000000000017',
    type: 'webhook.test',
    timestamp: AT,
    data: {
      message: 'This is a test event from Switchboard.',
      webhookId: '0193a8f0-2b3c-7d4e-8f5a-6b7c8d9e0f1a',
    },
  },
  'whatsapp.status': {
    id: 'evt_0193a8f3-0018-7a00-8000-000000000018',
    type: 'whatsapp.status',
    timestamp: AT,
    data: {
      phoneNumber: INSTANCE,
      status: 'qr_pending',
      qrCode: '2@Xq1zJ0tY7mPq3r8sT2uV,hW3yK9aB4cD5eF6gH7iJ8kL9m,Zr9kQ1wE2rT3yU4iO5pA6sD7f',
      customerId: 'cus_0193a8e0-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
    },
  },
};
