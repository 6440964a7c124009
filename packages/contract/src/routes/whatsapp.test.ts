import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../errors';
import { ERROR_RESPONSE_CODES } from '../schemas/common';
import { whatsappContract } from './whatsapp';

/** Every error code a route documents, across its statuses. */
function codesOf(route: { responses: Record<string, unknown> }): ErrorCode[] {
  return Object.values(route.responses).flatMap((schema) =>
    typeof schema === 'object' && schema !== null ? (ERROR_RESPONSE_CODES.get(schema) ?? []) : [],
  );
}

describe('the WhatsApp routes', () => {
  it('are the nine session operations of the spec', () => {
    const routes = Object.entries(whatsappContract).map(
      ([key, route]) => `${key} ${route.method} ${route.path}`,
    );
    expect(routes).toEqual([
      'list GET /v1/whatsapp',
      'enable POST /v1/whatsapp/numbers/:phoneNumber/enable',
      'status GET /v1/whatsapp/numbers/:phoneNumber/status',
      'qr GET /v1/whatsapp/numbers/:phoneNumber/qr',
      'pairingCode POST /v1/whatsapp/numbers/:phoneNumber/pairing-code',
      'disconnect POST /v1/whatsapp/numbers/:phoneNumber/disconnect',
      'delete DELETE /v1/whatsapp/numbers/:phoneNumber',
      'check GET /v1/whatsapp/numbers/:phoneNumber/check',
      'signupCodes GET /v1/whatsapp/numbers/:phoneNumber/signup-codes',
    ]);
  });

  it('answer NUMBER_NOT_OWNED and INVALID_PHONE_NUMBER on every route with a number', () => {
    for (const [key, route] of Object.entries(whatsappContract)) {
      expect(route.metadata, key).toEqual({ tag: 'WhatsApp' });
      const codes = codesOf(route);
      expect(codes, key).toEqual(expect.arrayContaining(['UNAUTHORIZED', 'FORBIDDEN']));
      if (route.path.includes(':phoneNumber')) {
        expect(codes, key).toEqual(
          expect.arrayContaining(['NUMBER_NOT_OWNED', 'INVALID_PHONE_NUMBER']),
        );
      }
    }
  });

  it('answer INVALID_STATUS where the session state matters', () => {
    for (const key of ['qr', 'pairingCode', 'check'] as const) {
      expect(codesOf(whatsappContract[key]), key).toContain('INVALID_STATUS');
    }
  });
});
