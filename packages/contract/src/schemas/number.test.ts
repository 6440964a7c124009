import { describe, expect, it } from 'vitest';
import { SenderNumber } from './number';

describe('SenderNumber', () => {
  it('parses its own example', () => {
    const example = (SenderNumber as { metaOpenApi?: { example?: unknown } }).metaOpenApi?.example;
    expect(SenderNumber.safeParse(example).success).toBe(true);
  });

  it('takes a null email and the four health values only', () => {
    const sender = {
      phoneNumber: '+14155550199',
      email: null,
      instanceName: 'Store Mac mini',
      isDefault: false,
      healthStatus: 'unknown',
    };
    expect(SenderNumber.safeParse(sender).success).toBe(true);
    for (const healthStatus of ['healthy', 'degraded', 'unhealthy']) {
      expect(SenderNumber.safeParse({ ...sender, healthStatus }).success).toBe(true);
    }
    expect(SenderNumber.safeParse({ ...sender, healthStatus: 'ok' }).success).toBe(false);
    expect(SenderNumber.safeParse({ ...sender, phoneNumber: '4155550199' }).success).toBe(false);
  });
});
