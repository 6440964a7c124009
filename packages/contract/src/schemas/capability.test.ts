import { describe, expect, it } from 'vitest';
import { CapabilityPathParams, CapabilityRecord } from './capability';
import { ERROR_CODE_PARAM } from './common';

/** The error codes of a failed parse (VALIDATION_ERROR when an issue names none). */
function codes(result: ReturnType<typeof CapabilityPathParams.safeParse>): string[] {
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const code = issue.code === 'custom' ? issue.params?.[ERROR_CODE_PARAM] : undefined;
    return typeof code === 'string' ? code : 'VALIDATION_ERROR';
  });
}

describe('CapabilityPathParams', () => {
  it.each([['+14155550100'], ['+12'], ['+123456789012345']])('accepts %s', (phoneNumber) => {
    expect(codes(CapabilityPathParams.safeParse({ phoneNumber }))).toEqual([]);
  });

  it.each([['14155550100'], ['+1 415 555 0100'], ['+1234567890123456'], ['someone@example.com']])(
    'answers INVALID_PHONE_NUMBER for %s',
    (phoneNumber) => {
      expect(codes(CapabilityPathParams.safeParse({ phoneNumber }))).toEqual([
        'INVALID_PHONE_NUMBER',
      ]);
    },
  );
});

describe('CapabilityRecord', () => {
  const example = (CapabilityRecord as { metaOpenApi?: { example?: unknown } }).metaOpenApi
    ?.example;

  it('parses its own example', () => {
    expect(CapabilityRecord.safeParse(example).success).toBe(true);
  });

  it('omits focusMode when not focused, and reports whatsapp reachability', () => {
    const record = {
      phoneNumber: '+14155550160',
      capabilities: { imessage: false, sms: true, facetime: false, whatsapp: true },
      focused: false,
      recommendedChannel: 'sms',
      lastChecked: '2026-11-21T10:00:00.000Z',
      cached: false,
    };
    expect(CapabilityRecord.parse(record)).toEqual(record);
    expect(
      CapabilityRecord.safeParse({ ...record, capabilities: { imessage: false, sms: true } })
        .success,
    ).toBe(false);
    expect(CapabilityRecord.safeParse({ ...record, recommendedChannel: 'whatsapp' }).success).toBe(
      false,
    );
  });
});
