import { generateSchema } from '@anatine/zod-openapi';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { isErrorCode } from '../errors';
import { ERROR_CODE_PARAM } from './common';
import {
  PairingCode,
  PairingCodeRequest,
  SignupCodes,
  WhatsAppCheckQuery,
  WhatsAppNumberPathParams,
  WhatsAppSession,
} from './whatsapp-session';

/** `ok`, the spec code of the first coded issue, or `VALIDATION_ERROR`. */
function outcome(schema: z.ZodTypeAny, value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) return 'ok';
  for (const issue of result.error.issues) {
    const code = issue.code === 'custom' ? issue.params?.[ERROR_CODE_PARAM] : undefined;
    if (isErrorCode(code)) return code;
  }
  return 'VALIDATION_ERROR';
}

describe('the phone number in WhatsApp paths', () => {
  it('accepts E.164 with or without the leading + and normalizes to E.164', () => {
    expect(WhatsAppNumberPathParams.parse({ phoneNumber: '+14155550100' })).toEqual({
      phoneNumber: '+14155550100',
    });
    expect(WhatsAppNumberPathParams.parse({ phoneNumber: '14155550100' })).toEqual({
      phoneNumber: '+14155550100',
    });
  });

  it('answers INVALID_PHONE_NUMBER for anything else', () => {
    for (const phoneNumber of ['+1', '1', 'abc', '+1 415 555 0100', '1234567890123456', '']) {
      expect(outcome(WhatsAppNumberPathParams, { phoneNumber }), phoneNumber).toBe(
        'INVALID_PHONE_NUMBER',
      );
    }
  });
});

describe('pairing code', () => {
  it('takes no body, an empty one, or another E.164 phone', () => {
    const body = PairingCodeRequest.optional();
    expect(outcome(body, undefined)).toBe('ok');
    expect(outcome(body, {})).toBe('ok');
    expect(outcome(body, { phoneNumber: '+14155550199' })).toBe('ok');
    expect(outcome(body, { phoneNumber: '14155550199' })).toBe('INVALID_PHONE_NUMBER');
    expect(outcome(body, { phone: '+14155550199' })).toBe('VALIDATION_ERROR');
  });

  it('is eight characters', () => {
    expect(PairingCode.safeParse({ pairingCode: 'K7QJ3M2P' }).success).toBe(true);
    expect(PairingCode.safeParse({ pairingCode: 'K7QJ3M2' }).success).toBe(false);
    expect(PairingCode.safeParse({ pairingCode: 'K7QJ-3M2P' }).success).toBe(false);
  });
});

describe('recipient check', () => {
  it('needs an E.164 phone', () => {
    expect(outcome(WhatsAppCheckQuery, { phone: '+14155550160' })).toBe('ok');
    expect(outcome(WhatsAppCheckQuery, { phone: '4155550160' })).toBe('INVALID_PHONE_NUMBER');
    expect(outcome(WhatsAppCheckQuery, {})).toBe('VALIDATION_ERROR');
  });
});

describe('responses', () => {
  it('documents a valid session and signup-code list', () => {
    expect(WhatsAppSession.safeParse(generateSchema(WhatsAppSession).example).success).toBe(true);
    expect(SignupCodes.safeParse(generateSchema(SignupCodes).example).success).toBe(true);
  });

  it('knows the five session states only', () => {
    const session = (status: string) => ({ phoneNumber: '+14155550100', whatsapp: { status } });
    for (const status of ['not_enabled', 'disconnected', 'connecting', 'qr_pending', 'connected']) {
      expect(WhatsAppSession.safeParse(session(status)).success, status).toBe(true);
    }
    expect(WhatsAppSession.safeParse(session('paired')).success).toBe(false);
  });

  it('always reports a 15-minute signup-code window', () => {
    expect(SignupCodes.safeParse({ windowMinutes: 30, codes: [] }).success).toBe(false);
  });
});
