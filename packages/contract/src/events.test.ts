import { generateSchema } from '@anatine/zod-openapi';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { EVENT_EXAMPLES } from './event-examples';
import {
  EVENT_TYPES,
  EventStreamQuery,
  FLAT_EVENT_TYPES,
  isEventType,
  matchesEventFilter,
  WEBHOOK_EVENT_TYPES,
} from './event-types';
import {
  EVENT_DATA_SCHEMAS,
  type EventData,
  type FaceTimeIncomingEvent,
  SwitchboardEvent,
  type SwitchboardEventOf,
  WebhookEvent,
} from './events';
import { hoistComponents, type JsonObject } from './openapi/json-schema';
import { InboundAttachment, MessageReactionData } from './schemas/inbound-event-data';
import { MessageLifecycleData } from './schemas/message-event-data';
import { WhatsAppStatusData } from './schemas/whatsapp-session';

/** A deep copy of an example with one change applied, for the negative cases. */
function variant<T>(value: T, change: (copy: T) => void): T {
  const copy = structuredClone(value);
  change(copy);
  return copy;
}

/** The messages of a failed parse, for readable assertions. */
function messagesOf(schema: z.ZodTypeAny, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

type Json = Record<string, unknown>;
const sent = EVENT_EXAMPLES['message.sent'] as unknown as Json & { data: Json };
const delivered = EVENT_EXAMPLES['message.delivered'] as unknown as Json & { data: Json };

describe('event types', () => {
  it('lists the 24 event types of the spec and the 2 of the opt-out ledger, once each', () => {
    expect(EVENT_TYPES).toHaveLength(26);
    expect(new Set(EVENT_TYPES).size).toBe(26);
    expect(EVENT_TYPES).toContain('contact.opted_out');
    expect(EVENT_TYPES).toContain('contact.opted_in');
    for (const type of ['message.schedule_cancelled', 'typing.indicator', 'whatsapp.status']) {
      expect(EVENT_TYPES).toContain(type);
    }
  });

  it('gives webhooks every type but the stream-only whatsapp.status', () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual(EVENT_TYPES.filter((type) => type !== 'whatsapp.status'));
  });

  it('recognizes event types and nothing else', () => {
    expect(isEventType('message.sent')).toBe(true);
    expect(isEventType('message.bounced')).toBe(false);
    expect(isEventType('*')).toBe(false);
    expect(isEventType(42)).toBe(false);
  });

  it('takes each data schema from the event schema of the same type', () => {
    for (const option of SwitchboardEvent.options) {
      if ('data' in option.shape) {
        const type = option.shape.type.value as keyof typeof EVENT_DATA_SCHEMAS;
        expect(EVENT_DATA_SCHEMAS[type], type).toBe(option.shape.data);
      }
    }
  });

  it('has a data schema for every enveloped type and none for the flat FaceTime bodies', () => {
    const enveloped = EVENT_TYPES.filter(
      (type) => !(FLAT_EVENT_TYPES as readonly string[]).includes(type),
    );
    expect(Object.keys(EVENT_DATA_SCHEMAS).sort()).toEqual([...enveloped].sort());
  });
});

describe('SwitchboardEvent', () => {
  it.each(EVENT_TYPES)('parses the %s example unchanged', (type) => {
    const example = EVENT_EXAMPLES[type];
    expect(example.type).toBe(type);
    expect(SwitchboardEvent.parse(example)).toEqual(example);
  });

  it('parses every webhook example as a WebhookEvent, and refuses whatsapp.status there', () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      expect(WebhookEvent.safeParse(EVENT_EXAMPLES[type]).success, type).toBe(true);
    }
    expect(WebhookEvent.safeParse(EVENT_EXAMPLES['whatsapp.status']).success).toBe(false);
  });

  it('checks each enveloped example’s data against EVENT_DATA_SCHEMAS', () => {
    for (const [type, schema] of Object.entries(EVENT_DATA_SCHEMAS)) {
      const example = EVENT_EXAMPLES[type as keyof typeof EVENT_DATA_SCHEMAS] as unknown as Json;
      expect(schema.safeParse(example.data).success, type).toBe(true);
    }
  });

  it('refuses an unknown type, a missing or malformed id, and a date-less envelope', () => {
    expect(SwitchboardEvent.safeParse({ ...sent, type: 'message.bounced' }).success).toBe(false);
    expect(SwitchboardEvent.safeParse({ ...sent, id: 'msg_123' }).success).toBe(false);
    const { timestamp: _timestamp, ...withoutTimestamp } = sent;
    expect(SwitchboardEvent.safeParse(withoutTimestamp).success).toBe(false);
    const { id: _id, ...withoutId } = sent;
    expect(SwitchboardEvent.safeParse(withoutId).success).toBe(false);
  });

  it('wants evt_test_ ids on webhook.test', () => {
    const test = EVENT_EXAMPLES['webhook.test'];
    expect(SwitchboardEvent.safeParse({ ...test, id: 'evt_0193a8f3' }).success).toBe(false);
  });

  it('keeps FaceTime bodies flat', () => {
    const incoming = EVENT_EXAMPLES['facetime.incoming'] as unknown as Json;
    const { type, ...rest } = incoming;
    const wrapped = { id: incoming.eventId, type, timestamp: '2026-11-21T10:00:00Z', data: rest };
    expect(SwitchboardEvent.safeParse(wrapped).success).toBe(false);
    expect(SwitchboardEvent.safeParse({ ...incoming, timestamp: '2026-11-21' }).success).toBe(
      false,
    );
    const status = EVENT_EXAMPLES['facetime.status_changed'];
    expect(SwitchboardEvent.safeParse({ ...status, status: 'ringing' }).success).toBe(false);
  });

  it('refuses a data payload of another type', () => {
    const inbound = EVENT_EXAMPLES['message.inbound'] as unknown as Json;
    expect(SwitchboardEvent.safeParse({ ...sent, data: inbound.data }).success).toBe(false);
  });
});

describe('event types in TypeScript', () => {
  it('narrow on `type` to the data of that event', () => {
    type InboundData = SwitchboardEventOf<'message.inbound'>['data'];
    expectTypeOf<InboundData>().toExtend<EventData<'message.inbound'>>();
    expectTypeOf<EventData<'message.inbound'>>().toExtend<InboundData>();
    expectTypeOf<SwitchboardEventOf<'facetime.incoming'>>().toEqualTypeOf<FaceTimeIncomingEvent>();
    expectTypeOf<
      SwitchboardEventOf<'message.delivered'>['data']['messageId']
    >().toEqualTypeOf<string>();
    expectTypeOf<EventData<'typing.indicator'>['status']>().toEqualTypeOf<'start' | 'stop'>();
    const describeEvent = (event: SwitchboardEvent): string => {
      switch (event.type) {
        case 'message.inbound':
          return `${event.data.attachments.length} attachments from ${event.data.from}`;
        case 'facetime.incoming':
          return `call ${event.callUuid} from ${event.caller}`;
        case 'whatsapp.status':
          return event.data.status;
        default:
          return event.type;
      }
    };
    expect(describeEvent(SwitchboardEvent.parse(EVENT_EXAMPLES['message.inbound']))).toBe(
      '1 attachments from +14155550123',
    );
  });
});

describe('message lifecycle data', () => {
  it('names its recipient exactly one way', () => {
    const both = variant(delivered.data, (data) => {
      data.to = '+14155550123';
    });
    expect(messagesOf(MessageLifecycleData, both)).toContain(
      'exactly one of to and conversationId must be present',
    );
    const neither = variant(sent.data, (data) => {
      delete data.to;
    });
    expect(MessageLifecycleData.safeParse(neither).success).toBe(false);
  });

  it('carries the conversation and sender fragments on chat-keyed sends', () => {
    const bare = variant(delivered.data, (data) => {
      delete data.sender;
    });
    expect(messagesOf(MessageLifecycleData, bare)).toContain(
      'a chat-keyed send carries its conversation and sender fragments',
    );
    const mismatched = variant(delivered.data, (data) => {
      (data.conversation as Json).id = '0193a8f2-0000-7000-8000-000000000000';
    });
    expect(messagesOf(MessageLifecycleData, mismatched)).toContain('must equal conversationId');
  });

  it('wants participant objects in a whatsapp conversation fragment', () => {
    const strings = variant(delivered.data, (data) => {
      (data.conversation as Json).participants = ['+14155550123'];
    });
    expect(MessageLifecycleData.safeParse(strings).success).toBe(false);
  });

  it('accepts a null channel (not chosen yet) but not an unknown one', () => {
    expect(MessageLifecycleData.safeParse({ ...sent.data, channel: null }).success).toBe(true);
    expect(MessageLifecycleData.safeParse({ ...sent.data, channel: 'email' }).success).toBe(false);
  });

  it('refuses a fallback with an unknown reason', () => {
    const fallback = EVENT_EXAMPLES['message.fallback'] as unknown as Json & { data: Json };
    const bad = { ...fallback, data: { ...fallback.data, reason: 'timeout' } };
    expect(SwitchboardEvent.safeParse(bad).success).toBe(false);
  });
});

describe('inbound data', () => {
  const attachment = {
    mimeType: 'image/png',
    totalBytes: 1024,
    downloadUrl: 'https://switchboard.example.com/v1/attachments/att_1?expires=1&signature=ab',
  };

  it('has exactly one of downloadUrl and note on an attachment', () => {
    expect(InboundAttachment.safeParse(attachment).success).toBe(true);
    expect(InboundAttachment.safeParse({ ...attachment, note: 'storage failed' }).success).toBe(
      false,
    );
    const { downloadUrl: _url, ...bare } = attachment;
    expect(InboundAttachment.safeParse(bare).success).toBe(false);
    expect(InboundAttachment.safeParse({ ...bare, note: 'storage failed' }).success).toBe(true);
  });

  it('accepts an otp annotation from a known provider only', () => {
    const inbound = EVENT_EXAMPLES['message.inbound'] as unknown as Json & { data: Json };
    const withOtp = (provider: string) => ({
      ...inbound,
      data: { ...inbound.data, otp: { code: '482913', provider } },
    });
    expect(SwitchboardEvent.safeParse(withOtp('whatsapp')).success).toBe(true);
    expect(SwitchboardEvent.safeParse(withOtp('carrier-pigeon')).success).toBe(false);
  });

  it('ties emoji and content to the emoji reaction type', () => {
    const reaction = EVENT_EXAMPLES['message.reaction'] as unknown as { data: { reaction: Json } };
    const data = reaction.data;
    const emoji = {
      ...data,
      reaction: { ...data.reaction, type: 'emoji', emoji: '🔥', content: null },
    };
    expect(MessageReactionData.safeParse(emoji).success).toBe(true);
    expect(
      MessageReactionData.safeParse({ ...emoji, reaction: { ...emoji.reaction, emoji: undefined } })
        .success,
    ).toBe(false);
    expect(
      MessageReactionData.safeParse({ ...data, reaction: { ...data.reaction, emoji: '🔥' } })
        .success,
    ).toBe(false);
    expect(
      MessageReactionData.safeParse({ ...data, reaction: { ...data.reaction, content: null } })
        .success,
    ).toBe(false);
  });

  it('refuses a typing indicator with another status', () => {
    const typing = EVENT_EXAMPLES['typing.indicator'] as unknown as Json & { data: Json };
    const bad = { ...typing, data: { ...typing.data, status: 'paused' } };
    expect(SwitchboardEvent.safeParse(bad).success).toBe(false);
  });
});

describe('whatsapp.status data', () => {
  const base = { phoneNumber: '+14155550100', customerId: 'cus_1' };

  it('carries qrCode, jid and disconnectReason only with their status', () => {
    expect(WhatsAppStatusData.safeParse({ ...base, status: 'connected', jid: 'j' }).success).toBe(
      true,
    );
    expect(messagesOf(WhatsAppStatusData, { ...base, status: 'connected', qrCode: 'q' })).toEqual([
      'qrCode is only present when status is qr_pending',
    ]);
    expect(
      WhatsAppStatusData.safeParse({ ...base, status: 'connecting', disconnectReason: 'x' })
        .success,
    ).toBe(false);
    expect(WhatsAppStatusData.safeParse({ ...base, status: 'paired' }).success).toBe(false);
  });
});

describe('the event stream filter', () => {
  const parse = (events?: string) =>
    EventStreamQuery.safeParse(events === undefined ? {} : { events });

  it('means every event when absent or *', () => {
    expect(parse()).toMatchObject({ success: true, data: { events: '*' } });
    expect(parse('*')).toMatchObject({ success: true, data: { events: '*' } });
    expect(parse('message.sent,*')).toMatchObject({ success: true, data: { events: '*' } });
  });

  it('parses a list, trimming and deduplicating', () => {
    expect(parse('message.sent, whatsapp.status,message.sent')).toMatchObject({
      success: true,
      data: { events: ['message.sent', 'whatsapp.status'] },
    });
  });

  it('names an unknown type', () => {
    const result = parse('message.sent,message.bounced');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('unknown event type "message.bounced"');
    expect(result.error?.issues[0]?.path).toEqual(['events']);
  });

  it('refuses empty entries', () => {
    expect(parse('').success).toBe(false);
    expect(parse('message.sent,,message.read').success).toBe(false);
  });

  it('matches events against a parsed filter', () => {
    expect(matchesEventFilter('*', 'whatsapp.status')).toBe(true);
    expect(matchesEventFilter(['message.sent'], 'message.sent')).toBe(true);
    expect(matchesEventFilter(['message.sent'], 'message.read')).toBe(false);
  });
});

describe('event components', () => {
  it('generate one consistent OpenAPI schema per component name', () => {
    const registry: JsonObject = {};
    hoistComponents(generateSchema(SwitchboardEvent, true) as JsonObject, registry);
    hoistComponents(generateSchema(WebhookEvent, true) as JsonObject, registry);
    expect(registry).toHaveProperty('Event');
    expect(registry).toHaveProperty('MessageInboundEvent');
    expect(registry).toHaveProperty('MessageLifecycleData');
    expect(registry.Event).toMatchObject({ discriminator: { propertyName: 'type' } });
  });
});
