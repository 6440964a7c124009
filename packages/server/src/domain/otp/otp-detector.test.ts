import { describe, expect, it } from 'vitest';
import { NEAR_MISS_MESSAGES, OTP_CORPUS, VERIFICATION_MESSAGES } from './otp-corpus';
import { detectVerificationCode } from './otp-detector';
import { OTP_PROVIDERS } from './otp-providers';

describe('detectVerificationCode', () => {
  it('is tested on a corpus of at least 60 messages, half of them near misses', () => {
    expect(OTP_CORPUS.length).toBeGreaterThanOrEqual(60);
    expect(VERIFICATION_MESSAGES.length).toBeGreaterThanOrEqual(30);
    expect(NEAR_MISS_MESSAGES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(VERIFICATION_MESSAGES.map((entry) => [entry.text, entry.expected] as const))(
    'finds the code in %j',
    (text, expected) => {
      expect(detectVerificationCode(text)).toEqual(expected);
    },
  );

  it.each(NEAR_MISS_MESSAGES.map((entry) => [entry.text] as const))(
    'lets %j pass through',
    (text) => {
      expect(detectVerificationCode(text)).toBeNull();
    },
  );

  it('answers only providers from OTP_PROVIDERS, whatsapp among them', () => {
    expect(OTP_PROVIDERS).toContain('whatsapp');
    for (const { text } of VERIFICATION_MESSAGES) {
      const found = detectVerificationCode(text);
      expect(OTP_PROVIDERS).toContain(found?.provider);
    }
  });

  it('keeps the code a user types: no dash, no space, no "G-" prefix', () => {
    expect(detectVerificationCode('Your code is 123-456')?.code).toBe('123456');
    expect(detectVerificationCode('123 456 is your Instagram code')?.code).toBe('123456');
    expect(detectVerificationCode('G-123456 is your Google verification code')?.code).toBe(
      '123456',
    );
  });

  it('reads full-width and Arabic-Indic digits as ASCII', () => {
    expect(detectVerificationCode('Your verification code is １２３４５６')?.code).toBe('123456');
    expect(detectVerificationCode('رمز التحقق: ٤٨٢٩١٣')?.code).toBe('482913');
  });

  it('prefers the code a keyword names over other numbers in the message', () => {
    expect(
      detectVerificationCode('Your verification code is 551093. Ref 778812. Call 555-0100.'),
    ).toEqual({ code: '551093', provider: 'generic' });
  });

  it('rejects a code-shaped number that belongs to a longer number', () => {
    expect(detectVerificationCode('Your verification code: 4821 9913 7720 1234')).toBeNull();
    expect(detectVerificationCode('Your verification code: 123456789')).toBeNull();
  });

  it('ignores text without digits and empty text', () => {
    expect(detectVerificationCode('')).toBeNull();
    expect(detectVerificationCode('Your verification code is on its way')).toBeNull();
  });

  it('scans 10,000 messages quickly (sanity print, not a timed assertion)', () => {
    const started = performance.now();
    for (let i = 0; i < 10_000; i += 1) {
      const entry = OTP_CORPUS[i % OTP_CORPUS.length];
      if (entry) detectVerificationCode(entry.text);
    }
    const elapsed = performance.now() - started;
    console.info(`detectVerificationCode: 10,000 messages in ${elapsed.toFixed(0)} ms`);
    expect(elapsed).toBeGreaterThan(0);
  });
});
