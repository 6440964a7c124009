import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AttachmentDownloadQuery } from './attachment-download';
import { ERROR_CODE_PARAM } from './common';
import {
  DeleteResult,
  EditMessageRequest,
  ListMessagesQuery,
  ListScheduledMessagesQuery,
  Message,
  MessageAttachment,
  MessageList,
  ReactionRequest,
  ReactionResult,
  RetryResult,
  SendMessageResult,
  TimelineEntry,
} from './message';
import { recipientKind } from './message-rules';
import { Metadata } from './message-values';
import { Attachment, Routing, SendMessageRequest } from './send-request';

/** One issue as the server will answer it: the field path and the spec error code. */
interface Answer {
  path: string;
  code: string;
  message: string;
}

/** Parses and returns each issue with the code the server answers it with. */
function answers(schema: z.ZodTypeAny, value: unknown): Answer[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const params = 'params' in issue ? (issue.params as Record<string, unknown> | undefined) : {};
    const code = params?.[ERROR_CODE_PARAM];
    return {
      path: issue.path.join('.'),
      code: typeof code === 'string' ? code : 'VALIDATION_ERROR',
      message: issue.message,
    };
  });
}

/** The codes of the issues, in order. */
function codes(schema: z.ZodTypeAny, value: unknown): string[] {
  return answers(schema, value).map((answer) => answer.code);
}

const CHAT_ID = '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f';
const OTHER_CHAT_ID = '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e60';
const MSG_ID = 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e';
const text = { content: { text: 'hello' } };

describe('SendMessageRequest', () => {
  const send = (body: Record<string, unknown>) => codes(SendMessageRequest, body);

  describe('recipient forms', () => {
    it.each([
      ['+14155550100'],
      ['+12'],
      ['+123456789012345'],
      ['someone@example.com'],
      ['120363041234567890@g.us'],
    ])('accepts to = %s', (to) => {
      expect(send({ to, ...text })).toEqual([]);
    });

    it.each([
      ['4155550100'],
      ['+1 415 555 0100'],
      ['(415) 555-0100'],
      ['+1234567890123456'],
      ['+1 (415) 555-0100'],
    ])('answers INVALID_PHONE_NUMBER for the phone-like %s', (to) => {
      expect(answers(SendMessageRequest, { to, ...text })).toEqual([
        expect.objectContaining({ path: 'to', code: 'INVALID_PHONE_NUMBER' }),
      ]);
    });

    it.each([['hello'], ['someone@localhost'], ['+1415555010a'], ['abc@g.us.com x']])(
      'answers INVALID_RECIPIENT for %s',
      (to) => {
        expect(answers(SendMessageRequest, { to, ...text })).toEqual([
          expect.objectContaining({ path: 'to', code: 'INVALID_RECIPIENT' }),
        ]);
      },
    );

    it('tells the recipient forms apart', () => {
      expect(recipientKind('+14155550100')).toBe('phone');
      expect(recipientKind('someone@example.com')).toBe('email');
      expect(recipientKind('120363041234567890@g.us')).toBe('group');
      expect(recipientKind('nobody')).toBeNull();
    });

    it('keeps a wrongly typed `to` a plain validation error', () => {
      expect(send({ to: 14155550100, ...text })).toEqual(['VALIDATION_ERROR']);
    });
  });

  describe('exactly one of to and chatId', () => {
    it('accepts chatId, conversationId, or both when equal', () => {
      expect(send({ chatId: CHAT_ID, ...text })).toEqual([]);
      expect(send({ conversationId: CHAT_ID, ...text })).toEqual([]);
      expect(send({ chatId: CHAT_ID, conversationId: CHAT_ID, ...text })).toEqual([]);
    });

    it('answers INVALID_REQUEST for neither', () => {
      expect(send({ ...text })).toEqual(['INVALID_REQUEST']);
    });

    it('answers INVALID_REQUEST for both', () => {
      expect(send({ to: '+14155550100', chatId: CHAT_ID, ...text })).toEqual(['INVALID_REQUEST']);
      expect(send({ to: '+14155550100', conversationId: CHAT_ID, ...text })).toEqual([
        'INVALID_REQUEST',
      ]);
    });

    it('answers INVALID_REQUEST for different chatId and conversationId', () => {
      expect(
        answers(SendMessageRequest, { chatId: CHAT_ID, conversationId: OTHER_CHAT_ID, ...text }),
      ).toEqual([expect.objectContaining({ path: 'conversationId', code: 'INVALID_REQUEST' })]);
    });

    it('requires chat ids to be UUIDs', () => {
      expect(answers(SendMessageRequest, { chatId: 'chat-1', ...text })).toEqual([
        expect.objectContaining({ path: 'chatId', code: 'VALIDATION_ERROR' }),
      ]);
    });
  });

  describe('content', () => {
    it('answers VALIDATION_ERROR naming content.text when there is nothing to send', () => {
      for (const body of [
        { to: '+14155550100' },
        { to: '+14155550100', content: {} },
        { to: '+14155550100', content: { text: '' } },
        { to: '+14155550100', content: { text: '   ' } },
      ]) {
        expect(answers(SendMessageRequest, body)).toEqual([
          expect.objectContaining({ path: 'content.text', code: 'VALIDATION_ERROR' }),
        ]);
      }
    });

    it('accepts media-only and attachment-only sends', () => {
      expect(
        send({ to: '+14155550100', content: { mediaUrls: ['https://cdn.example.com/a.jpg'] } }),
      ).toEqual([]);
      expect(
        send({
          to: '+14155550100',
          content: { text: '' },
          attachments: [{ type: 'base64', data: 'aGVsbG8=', mimeType: 'text/plain' }],
        }),
      ).toEqual([]);
    });

    it('limits text to 10,000 characters', () => {
      expect(send({ to: '+14155550100', content: { text: 'x'.repeat(10_000) } })).toEqual([]);
      expect(
        answers(SendMessageRequest, { to: '+14155550100', content: { text: 'x'.repeat(10_001) } }),
      ).toEqual([expect.objectContaining({ path: 'content.text', code: 'VALIDATION_ERROR' })]);
    });

    it('takes 1 to 20 https image URLs', () => {
      const url = (i: number) => `https://cdn.example.com/img/${i}.png`;
      const media = (mediaUrls: string[]) => send({ to: '+14155550100', content: { mediaUrls } });
      expect(media(Array.from({ length: 20 }, (_, i) => url(i)))).toEqual([]);
      expect(media(Array.from({ length: 21 }, (_, i) => url(i)))).toEqual(['VALIDATION_ERROR']);
      expect(media([])).toEqual(['VALIDATION_ERROR']);
    });

    it.each([
      ['https://cdn.example.com/a.jpg'],
      ['https://cdn.example.com/a.JPEG'],
      ['https://cdn.example.com/a.gif?size=large'],
      ['https://cdn.example.com/a.webp#x'],
      ['https://images.example.com/photo-1520'],
      ['https://images.example.com/'],
    ])('accepts the media URL %s', (mediaUrl) => {
      expect(send({ to: '+14155550100', content: { mediaUrls: [mediaUrl] } })).toEqual([]);
    });

    it.each([
      ['ftp://cdn.example.com/a.jpg', 'https'],
      ['not a url', 'https'],
      ['https://cdn.example.com/report.pdf', 'attachments'],
      ['https://cdn.example.com/clip.mp4', 'attachments'],
    ])('refuses the media URL %s', (mediaUrl, hint) => {
      const result = answers(SendMessageRequest, {
        to: '+14155550100',
        content: { mediaUrls: [mediaUrl] },
      });
      expect(result).toEqual([
        expect.objectContaining({ path: 'content.mediaUrls.0', code: 'VALIDATION_ERROR' }),
      ]);
      expect(result[0]?.message).toContain(hint);
    });

    it('refuses attachments together with mediaUrls (rule 4)', () => {
      expect(
        answers(SendMessageRequest, {
          to: '+14155550100',
          content: { mediaUrls: ['https://cdn.example.com/a.jpg'] },
          attachments: [{ url: 'https://cdn.example.com/b.pdf' }],
        }),
      ).toEqual([expect.objectContaining({ path: 'attachments', code: 'VALIDATION_ERROR' })]);
    });

    it('takes 1 to 20 attachments', () => {
      const item = { url: 'https://cdn.example.com/b.pdf' };
      expect(send({ to: '+14155550100', attachments: [] })).toContain('VALIDATION_ERROR');
      expect(send({ to: '+14155550100', attachments: Array(20).fill(item) })).toEqual([]);
      expect(send({ to: '+14155550100', attachments: Array(21).fill(item) })).toEqual([
        'VALIDATION_ERROR',
      ]);
    });
  });

  describe('attachment items', () => {
    const item = (value: unknown) => answers(Attachment, value);

    it('accepts url and base64 items, with the type given or inferred', () => {
      expect(item({ type: 'url', url: 'https://cdn.example.com/b.pdf' })).toEqual([]);
      expect(item({ url: 'https://cdn.example.com/b.pdf', filename: 'b.pdf' })).toEqual([]);
      expect(item({ type: 'base64', data: 'aGVsbG8gd29ybGQ=', mimeType: 'text/plain' })).toEqual(
        [],
      );
      expect(item({ data: 'aGk=' })).toEqual([]);
    });

    it('requires an absolute http(s) url for type url (https is the server guard rule)', () => {
      expect(item({ type: 'url' })).toEqual([expect.objectContaining({ path: 'url' })]);
      expect(item({ type: 'url', url: 'http://cdn.example.com/b.pdf' })).toEqual([]);
      expect(item({ type: 'url', url: 'ftp://cdn.example.com/b.pdf' })).toEqual([
        expect.objectContaining({ path: 'url', code: 'VALIDATION_ERROR' }),
      ]);
      expect(item({ type: 'url', url: 'https://cdn.example.com/b.pdf', data: 'aGk=' })).toEqual([
        expect.objectContaining({ path: 'data' }),
      ]);
    });

    it('requires valid base64 data for type base64', () => {
      expect(item({ type: 'base64' })).toEqual([expect.objectContaining({ path: 'data' })]);
      for (const data of [
        '',
        'aGk',
        'aGk=x',
        'a GVsbG8=',
        'data:text/plain;base64,aGk=',
        'aGVs!G8=',
      ]) {
        expect(item({ type: 'base64', data }), data).toEqual([
          expect.objectContaining({ path: 'data', code: 'VALIDATION_ERROR' }),
        ]);
      }
    });

    it('needs url or data', () => {
      expect(item({ mimeType: 'image/png' })).toEqual([expect.objectContaining({ path: '' })]);
    });

    it('checks the other fields', () => {
      expect(item({ url: 'https://x.example/a', isAudioMessage: 'yes' })).toHaveLength(1);
      expect(item({ url: 'https://x.example/a', mimeType: 'png' })).toEqual([
        expect.objectContaining({ path: 'mimeType' }),
      ]);
      expect(item({ url: 'https://x.example/a', filename: '../etc/passwd' })).toEqual([
        expect.objectContaining({ path: 'filename' }),
      ]);
      expect(item({ url: 'https://x.example/a', mimetype: 'image/png' })).toEqual([
        expect.objectContaining({ code: 'VALIDATION_ERROR' }),
      ]);
    });

    it('makes a voice memo an audio file without text', () => {
      const memo = { data: 'aGk=', mimeType: 'audio/mpeg', isAudioMessage: true };
      expect(send({ to: '+14155550100', attachments: [memo] })).toEqual([]);
      expect(
        answers(SendMessageRequest, { to: '+14155550100', ...text, attachments: [memo] }),
      ).toEqual([expect.objectContaining({ path: 'content.text', code: 'VALIDATION_ERROR' })]);
      expect(item({ ...memo, mimeType: 'video/mp4' })).toEqual([
        expect.objectContaining({ path: 'mimeType' }),
      ]);
    });
  });

  describe('options', () => {
    const base = { to: '+14155550100', ...text };

    it('accepts every effect and refuses others', () => {
      for (const effect of [
        'fireworks',
        'balloons',
        'confetti',
        'lasers',
        'spotlight',
        'slam',
        'loud',
        'gentle',
        'invisibleInk',
        'echo',
        'love',
      ]) {
        expect(send({ ...base, effect }), effect).toEqual([]);
      }
      expect(send({ ...base, effect: 'sparkles' })).toEqual(['VALIDATION_ERROR']);
    });

    it('accepts messageType carousel with 2+ media URLs only', () => {
      const mediaUrls = ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg'];
      expect(send({ to: '+14155550100', content: { mediaUrls }, messageType: 'carousel' })).toEqual(
        [],
      );
      expect(send({ ...base, messageType: 'carousel' })).toEqual(['VALIDATION_ERROR']);
      expect(send({ to: '+14155550100', content: { mediaUrls }, messageType: 'gallery' })).toEqual([
        'VALIDATION_ERROR',
      ]);
    });

    it('checks mentions', () => {
      const group = { to: '120363041234567890@g.us', content: { text: '@Ana see you at 5' } };
      expect(
        send({ ...group, mentions: [{ address: '+14155550161', start: 0, length: 4 }] }),
      ).toEqual([]);
      for (const mention of [
        { address: '+14155550161', start: -1, length: 4 },
        { address: '+14155550161', start: 0, length: 0 },
        { address: '+14155550161', start: 0.5, length: 4 },
        { address: '', start: 0, length: 4 },
        { address: '+14155550161', start: 0 },
        { address: '+14155550161', start: 10, length: 100 },
      ]) {
        expect(
          answers(SendMessageRequest, { ...group, mentions: [mention] }),
          JSON.stringify(mention),
        ).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR' })]);
      }
    });

    it.each([['2026-11-22T09:00:00Z'], ['2026-11-22T09:00:00.250+02:00'], ['2026-11-22T09:00Z']])(
      'accepts scheduledAt = %s',
      (scheduledAt) => {
        expect(send({ ...base, scheduledAt })).toEqual([]);
      },
    );

    it.each([
      ['2026-11-22T09:00:00'],
      ['2026-11-22'],
      ['tomorrow'],
      ['2026-02-30T09:00:00Z'],
      ['22/11/2026 09:00'],
    ])('answers INVALID_SCHEDULED_AT for scheduledAt = %s', (scheduledAt) => {
      expect(answers(SendMessageRequest, { ...base, scheduledAt })).toEqual([
        expect.objectContaining({ path: 'scheduledAt', code: 'INVALID_SCHEDULED_AT' }),
      ]);
    });

    it('accepts a past scheduledAt (the server judges it against its clock)', () => {
      expect(send({ ...base, scheduledAt: '2001-01-01T00:00:00Z' })).toEqual([]);
    });

    it('limits idempotencyKey to 1-255 characters', () => {
      expect(send({ ...base, idempotencyKey: 'k'.repeat(255) })).toEqual([]);
      expect(send({ ...base, idempotencyKey: 'k'.repeat(256) })).toEqual(['VALIDATION_ERROR']);
      expect(send({ ...base, idempotencyKey: '' })).toEqual(['VALIDATION_ERROR']);
    });

    it('requires an absolute http(s) callbackUrl (https is the server guard rule)', () => {
      expect(send({ ...base, callbackUrl: 'https://example.com/hook' })).toEqual([]);
      expect(send({ ...base, callbackUrl: 'http://example.com/hook' })).toEqual([]);
      expect(send({ ...base, callbackUrl: 'ftp://example.com/hook' })).toEqual([
        'VALIDATION_ERROR',
      ]);
      expect(send({ ...base, callbackUrl: 'example.com/hook' })).toEqual(['VALIDATION_ERROR']);
    });

    it('takes createContact as a boolean', () => {
      expect(send({ ...base, createContact: true })).toEqual([]);
      expect(send({ ...base, createContact: 'yes' })).toEqual(['VALIDATION_ERROR']);
    });

    it('requires replyTo to be a message id', () => {
      expect(send({ ...base, replyTo: MSG_ID })).toEqual([]);
      expect(send({ ...base, replyTo: 'p:0/4C3E5B1A' })).toEqual(['VALIDATION_ERROR']);
    });

    it('takes from as E.164 or an e-mail style address', () => {
      expect(send({ ...base, from: '+14155550199' })).toEqual([]);
      expect(send({ ...base, from: 'orders@example.com' })).toEqual([]);
      expect(send({ ...base, from: '415-555-0199' })).toEqual(['INVALID_PHONE_NUMBER']);
      expect(send({ ...base, from: 'orders' })).toEqual(['VALIDATION_ERROR']);
    });

    it('refuses unknown fields, also nested ones', () => {
      expect(answers(SendMessageRequest, { ...base, priority: 'high' })).toEqual([
        expect.objectContaining({ code: 'VALIDATION_ERROR' }),
      ]);
      expect(send({ to: '+14155550100', content: { text: 'hi', body: 'x' } })).toEqual([
        'VALIDATION_ERROR',
      ]);
    });
  });

  describe('routing', () => {
    it('defaults to imessage then sms with fallback', () => {
      const parsed = SendMessageRequest.parse({ to: '+14155550100', ...text, routing: {} });
      expect(parsed.routing).toEqual({ preference: ['imessage', 'sms'], fallback: true });
    });

    it('takes a non-empty list of distinct channels', () => {
      expect(answers(Routing, { preference: ['whatsapp', 'sms'], fallback: false })).toEqual([]);
      expect(answers(Routing, { preference: [] })).toHaveLength(1);
      expect(answers(Routing, { preference: ['sms', 'sms'] })).toEqual([
        expect.objectContaining({ path: 'preference.1', code: 'VALIDATION_ERROR' }),
      ]);
      expect(answers(Routing, { preference: ['telegram'] })).toHaveLength(1);
      expect(answers(Routing, { fallback: 'no' })).toHaveLength(1);
    });
  });
});

describe('Metadata', () => {
  it('accepts up to 50 keys of up to 40 characters with scalar values', () => {
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    expect(answers(Metadata, metadata)).toEqual([]);
    expect(
      answers(Metadata, { ['k'.repeat(40)]: 'x'.repeat(500), b: true, n: null, f: 1.5 }),
    ).toEqual([]);
  });

  it('refuses more keys, longer keys, longer strings and nested values', () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    expect(codes(Metadata, tooMany)).toEqual(['VALIDATION_ERROR']);
    expect(answers(Metadata, { ['k'.repeat(41)]: 1 })).toEqual([
      expect.objectContaining({ path: 'k'.repeat(41) }),
    ]);
    expect(codes(Metadata, { '': 1 })).toEqual(['VALIDATION_ERROR']);
    expect(answers(Metadata, { a: 'x'.repeat(501) })).toEqual([
      expect.objectContaining({ path: 'a' }),
    ]);
    expect(codes(Metadata, { a: { b: 1 } })).toEqual(['VALIDATION_ERROR']);
    expect(codes(Metadata, { a: [1] })).toEqual(['VALIDATION_ERROR']);
    expect(codes(Metadata, ['a'])).toEqual(['VALIDATION_ERROR']);
  });
});

describe('EditMessageRequest', () => {
  it('requires text of 1 to 10,000 characters', () => {
    expect(codes(EditMessageRequest, { text: 'fixed' })).toEqual([]);
    expect(
      codes(EditMessageRequest, { text: 'fixed', backwardsCompatibilityMessage: 'Edited: fixed' }),
    ).toEqual([]);
    expect(codes(EditMessageRequest, {})).toEqual(['VALIDATION_ERROR']);
    expect(codes(EditMessageRequest, { text: '' })).toEqual(['VALIDATION_ERROR']);
    expect(codes(EditMessageRequest, { text: 'x'.repeat(10_001) })).toEqual(['VALIDATION_ERROR']);
    expect(
      codes(EditMessageRequest, { text: 'ok', backwardsCompatibilityMessage: 'x'.repeat(10_001) }),
    ).toEqual(['VALIDATION_ERROR']);
    expect(codes(EditMessageRequest, { text: 'ok', extra: 1 })).toEqual(['VALIDATION_ERROR']);
  });
});

describe('ReactionRequest', () => {
  it('accepts the tapbacks, their negative forms and pass-through strings', () => {
    for (const type of [
      'love',
      'like',
      'dislike',
      'laugh',
      'emphasize',
      'question',
      '-love',
      '-question',
      '🔥',
    ]) {
      expect(codes(ReactionRequest, { type }), type).toEqual([]);
    }
  });

  it('refuses blank, overlong or missing types', () => {
    expect(codes(ReactionRequest, { type: '' })).toContain('VALIDATION_ERROR');
    expect(codes(ReactionRequest, { type: '   ' })).toEqual(['VALIDATION_ERROR']);
    expect(codes(ReactionRequest, { type: 'x'.repeat(65) })).toEqual(['VALIDATION_ERROR']);
    expect(codes(ReactionRequest, {})).toEqual(['VALIDATION_ERROR']);
    expect(codes(ReactionRequest, { type: 'love', emoji: '❤️' })).toEqual(['VALIDATION_ERROR']);
  });
});

describe('list queries', () => {
  it('coerces the page query and applies the default limit', () => {
    expect(ListMessagesQuery.parse({})).toEqual({ limit: 50 });
    expect(
      ListMessagesQuery.parse({
        limit: '10',
        cursor: 'abc',
        status: 'cancelled',
        to: '+14155550100',
      }),
    ).toEqual({
      limit: 10,
      cursor: 'abc',
      status: 'cancelled',
      to: '+14155550100',
    });
  });

  it('validates limit, status and the to filter', () => {
    expect(codes(ListMessagesQuery, { limit: '0' })).toEqual(['VALIDATION_ERROR']);
    expect(codes(ListMessagesQuery, { limit: '101' })).toEqual(['VALIDATION_ERROR']);
    expect(codes(ListMessagesQuery, { status: 'lost' })).toEqual(['VALIDATION_ERROR']);
    expect(codes(ListMessagesQuery, { to: '4155550100' })).toEqual(['INVALID_PHONE_NUMBER']);
    expect(codes(ListMessagesQuery, { statuss: 'failed' })).toEqual(['VALIDATION_ERROR']);
  });

  it('takes only the page query on the scheduled list', () => {
    expect(ListScheduledMessagesQuery.parse({ limit: '5' })).toEqual({ limit: 5 });
    expect(codes(ListScheduledMessagesQuery, { status: 'queued' })).toEqual(['VALIDATION_ERROR']);
  });
});

describe('AttachmentDownloadQuery', () => {
  const signature = 'a'.repeat(64);

  it('takes expires as unix seconds and a 64-character hex signature', () => {
    expect(AttachmentDownloadQuery.parse({ expires: '1795258800', signature })).toEqual({
      expires: 1795258800,
      signature,
    });
  });

  it('answers VALIDATION_ERROR for a missing or malformed value', () => {
    expect(codes(AttachmentDownloadQuery, { signature })).toEqual(['VALIDATION_ERROR']);
    expect(codes(AttachmentDownloadQuery, { expires: 'soon', signature })).toEqual([
      'VALIDATION_ERROR',
    ]);
    expect(codes(AttachmentDownloadQuery, { expires: '1795258800' })).toEqual(['VALIDATION_ERROR']);
    expect(codes(AttachmentDownloadQuery, { expires: '1795258800', signature: 'XYZ' })).toEqual([
      'VALIDATION_ERROR',
    ]);
  });
});

describe('component examples', () => {
  const withExample: [string, z.ZodTypeAny][] = [
    ['SendMessageRequest', SendMessageRequest],
    ['SendMessageResult', SendMessageResult],
    ['Message', Message],
    ['TimelineEntry', TimelineEntry],
    ['Attachment', Attachment],
    ['Metadata', Metadata],
    ['RetryResult', RetryResult],
    ['EditMessageRequest', EditMessageRequest],
    ['ReactionRequest', ReactionRequest],
    ['ReactionResult', ReactionResult],
    ['DeleteResult', DeleteResult],
  ];

  it.each(withExample)('%s parses its own example', (_name, schema) => {
    const example = (schema as { metaOpenApi?: { example?: unknown } }).metaOpenApi?.example;
    expect(example).toBeDefined();
    expect(answers(schema, example)).toEqual([]);
  });

  it('lists messages in the list shape', () => {
    const message = (Message as { metaOpenApi?: { example?: unknown } }).metaOpenApi?.example;
    expect(
      answers(MessageList, {
        messages: [message],
        pagination: { hasMore: false, nextCursor: null },
      }),
    ).toEqual([]);
  });

  it('describes stored attachments without bytes', () => {
    expect(
      answers(MessageAttachment, {
        mimeType: 'audio/mpeg',
        filename: null,
        totalBytes: 1024,
        isAudioMessage: true,
        url: null,
        downloadUrl: 'https://gw.example.com/v1/attachments/att_1?expires=1&signature=ab',
      }),
    ).toEqual([]);
  });
});
