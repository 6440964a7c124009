import { describe, expect, it } from 'vitest';
import { isValidTwilioSignature, twilioSignature } from './twilio-signature';

// Twilio's published example (twilio-node and its documentation's signature validation snippets).
const TOKEN = '12345';
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const params = (caller: string): [string, string][] => [
  ['CallSid', 'CA1234567890ABCDE'],
  ['Caller', caller],
  ['Digits', '1234'],
  ['From', caller],
  ['To', '+18005551212'],
];

describe('X-Twilio-Signature', () => {
  it("matches Twilio's published known answers", () => {
    expect(twilioSignature(TOKEN, URL_, params('+14158675310'))).toBe(
      'GvWf1cFY/Q7PnoempGyD5oXAezc=',
    );
    expect(twilioSignature(TOKEN, URL_, params('+14158675309'))).toBe(
      'RSOYDt4T1cUTdK1PDd93/VVr8B8=',
    );
  });

  it('does not depend on the order the parameters arrived in', () => {
    const shuffled = [...params('+14158675310')].reverse();
    expect(twilioSignature(TOKEN, URL_, shuffled)).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
  });

  it('covers every value of a repeated parameter', () => {
    const one = twilioSignature(TOKEN, URL_, [['MediaUrl', 'https://a/1']]);
    const two = twilioSignature(TOKEN, URL_, [
      ['MediaUrl', 'https://a/1'],
      ['MediaUrl', 'https://a/2'],
    ]);
    expect(two).not.toBe(one);
  });

  it('accepts the URL signed with or without its default port, and nothing else', () => {
    const signedWithPort = twilioSignature(TOKEN, 'https://mycompany.com:443/sms', []);
    expect(isValidTwilioSignature(TOKEN, signedWithPort, 'https://mycompany.com/sms', [])).toBe(
      true,
    );
    const signedWithout = twilioSignature(TOKEN, 'https://mycompany.com/sms', []);
    expect(isValidTwilioSignature(TOKEN, signedWithout, 'https://mycompany.com:443/sms', [])).toBe(
      true,
    );
    expect(isValidTwilioSignature(TOKEN, signedWithout, 'https://mycompany.com/other', [])).toBe(
      false,
    );
    expect(isValidTwilioSignature('54321', signedWithout, 'https://mycompany.com/sms', [])).toBe(
      false,
    );
    expect(isValidTwilioSignature(TOKEN, undefined, 'https://mycompany.com/sms', [])).toBe(false);
    expect(isValidTwilioSignature(TOKEN, 'short', 'https://mycompany.com/sms', [])).toBe(false);
  });

  it('accepts a call Twilio signed with a connection-override fragment the receiver never sees', () => {
    const configured = 'https://mycompany.com/sms?attempt=a#rc=3&rp=all';
    const signature = twilioSignature(TOKEN, configured, [['Body', 'hi']]);
    const received = 'https://mycompany.com/sms?attempt=a';
    expect(isValidTwilioSignature(TOKEN, signature, received, [['Body', 'hi']])).toBe(false);
    expect(
      isValidTwilioSignature(TOKEN, signature, received, [['Body', 'hi']], ['#rc=3&rp=all']),
    ).toBe(true);
    expect(
      isValidTwilioSignature(TOKEN, signature, received, [['Body', 'hi']], ['#rc=5&rp=all']),
    ).toBe(false);
  });
});
