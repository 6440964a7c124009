import { generateSchema } from '@anatine/zod-openapi';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { isErrorCode } from '../errors';
import {
  AddParticipantRequest,
  Chat,
  ChatPathParams,
  CreatedGroup,
  CreateGroupRequest,
  RenameChatRequest,
  TypingRequest,
  WhatsAppParticipant,
} from './chat';
import { ERROR_CODE_PARAM } from './common';

/**
 * What the server answers for a body: `ok`, or the spec error code of the first coded issue, or
 * `VALIDATION_ERROR` when no issue carries one.
 */
function outcome(schema: z.ZodTypeAny, value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) return 'ok';
  for (const issue of result.error.issues) {
    const code = issue.code === 'custom' ? issue.params?.[ERROR_CODE_PARAM] : undefined;
    if (isErrorCode(code)) return code;
  }
  return 'VALIDATION_ERROR';
}

const exampleOf = (schema: z.ZodTypeAny) => generateSchema(schema).example;

describe('CreateGroupRequest', () => {
  it('accepts E.164 numbers and account identifiers on imessage, the default channel', () => {
    const result = CreateGroupRequest.safeParse({
      participants: ['+14155550101', 'ada@example.com'],
    });
    expect(result).toMatchObject({ success: true, data: { channel: 'imessage' } });
  });

  it('accepts its documented example', () => {
    expect(outcome(CreateGroupRequest, exampleOf(CreateGroupRequest))).toBe('ok');
  });

  it('requires a name on whatsapp (NAME_REQUIRED), not on imessage', () => {
    const participants = ['+14155550101'];
    expect(outcome(CreateGroupRequest, { participants, channel: 'whatsapp' })).toBe(
      'NAME_REQUIRED',
    );
    expect(outcome(CreateGroupRequest, { participants, channel: 'whatsapp', name: 'Crew' })).toBe(
      'ok',
    );
    expect(outcome(CreateGroupRequest, { participants })).toBe('ok');
  });

  it('answers INVALID_PHONE_NUMBER for a phone-like participant that is not E.164', () => {
    expect(outcome(CreateGroupRequest, { participants: ['(415) 555-0101'] })).toBe(
      'INVALID_PHONE_NUMBER',
    );
    expect(outcome(CreateGroupRequest, { participants: ['+1234567890123456'] })).toBe(
      'INVALID_PHONE_NUMBER',
    );
  });

  it('refuses account identifiers on whatsapp, and anything that is no address', () => {
    expect(
      outcome(CreateGroupRequest, {
        participants: ['ada@example.com'],
        channel: 'whatsapp',
        name: 'Crew',
      }),
    ).toBe('VALIDATION_ERROR');
    expect(outcome(CreateGroupRequest, { participants: ['ada'] })).toBe('VALIDATION_ERROR');
  });

  it('refuses an empty or duplicated participant list', () => {
    expect(outcome(CreateGroupRequest, { participants: [] })).toBe('VALIDATION_ERROR');
    expect(outcome(CreateGroupRequest, { participants: ['+14155550101', '+14155550101'] })).toBe(
      'VALIDATION_ERROR',
    );
  });

  it('refuses a blank or overlong name, another channel and unknown fields', () => {
    const participants = ['+14155550101'];
    expect(outcome(CreateGroupRequest, { participants, name: '   ' })).toBe('VALIDATION_ERROR');
    expect(outcome(CreateGroupRequest, { participants, name: 'x'.repeat(101) })).toBe(
      'VALIDATION_ERROR',
    );
    expect(outcome(CreateGroupRequest, { participants, channel: 'sms' })).toBe('VALIDATION_ERROR');
    expect(outcome(CreateGroupRequest, { participants, topic: 'x' })).toBe('VALIDATION_ERROR');
  });

  it('wants `from` as E.164 (INVALID_PHONE_NUMBER otherwise)', () => {
    const participants = ['+14155550101'];
    expect(outcome(CreateGroupRequest, { participants, from: '+14155550100' })).toBe('ok');
    expect(outcome(CreateGroupRequest, { participants, from: '4155550100' })).toBe(
      'INVALID_PHONE_NUMBER',
    );
  });
});

describe('chat request bodies', () => {
  it('rename: a 1 to 100 character name, nothing else', () => {
    expect(outcome(RenameChatRequest, { name: 'Launch crew' })).toBe('ok');
    expect(outcome(RenameChatRequest, { name: '' })).toBe('VALIDATION_ERROR');
    expect(outcome(RenameChatRequest, {})).toBe('VALIDATION_ERROR');
    expect(outcome(RenameChatRequest, { name: 'a', extra: 1 })).toBe('VALIDATION_ERROR');
  });

  it('add participant: E.164 or an account identifier', () => {
    expect(outcome(AddParticipantRequest, { participant: '+14155550103' })).toBe('ok');
    expect(outcome(AddParticipantRequest, { participant: 'ada@example.com' })).toBe('ok');
    expect(outcome(AddParticipantRequest, { participant: '415-555-0103' })).toBe(
      'INVALID_PHONE_NUMBER',
    );
    expect(outcome(AddParticipantRequest, { participant: 'ada' })).toBe('VALIDATION_ERROR');
    expect(outcome(AddParticipantRequest, {})).toBe('VALIDATION_ERROR');
  });

  it('typing: start or stop', () => {
    expect(outcome(TypingRequest, { status: 'start' })).toBe('ok');
    expect(outcome(TypingRequest, { status: 'stop' })).toBe('ok');
    expect(outcome(TypingRequest, { status: 'composing' })).toBe('VALIDATION_ERROR');
  });

  it('path: a chat identifier or conversation id, not empty', () => {
    expect(outcome(ChatPathParams, { chatId: 'iMessage;+;chat493027156834' })).toBe('ok');
    expect(outcome(ChatPathParams, { chatId: '' })).toBe('VALIDATION_ERROR');
  });
});

describe('Chat', () => {
  const imessage = {
    chatId: 'iMessage;+;chat493027156834',
    participants: ['+14155550123', 'ada@example.com'],
    isGroup: true,
  };

  it('takes string participants on imessage, with or without channel and conversationId', () => {
    expect(Chat.safeParse(imessage).success).toBe(true);
    expect(
      Chat.safeParse({
        ...imessage,
        channel: 'imessage',
        conversationId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
      }).success,
    ).toBe(true);
  });

  it('takes participant objects on whatsapp, never strings', () => {
    expect(Chat.safeParse(exampleOf(Chat)).success).toBe(true);
    expect(Chat.safeParse({ ...imessage, channel: 'whatsapp' }).success).toBe(false);
  });

  it('has createdAt on the creation response', () => {
    const example = exampleOf(CreatedGroup) as Record<string, unknown>;
    expect(CreatedGroup.safeParse(example).success).toBe(true);
    const { createdAt: _createdAt, ...withoutDate } = example;
    expect(CreatedGroup.safeParse(withoutDate).success).toBe(false);
  });

  it('limits a participant’s admin role to admin, superadmin or null', () => {
    const member = { handle: '208512345678901@lid', isPhoneResolved: false, admin: null };
    expect(WhatsAppParticipant.safeParse(member).success).toBe(true);
    expect(WhatsAppParticipant.safeParse({ ...member, admin: 'owner' }).success).toBe(false);
  });
});
