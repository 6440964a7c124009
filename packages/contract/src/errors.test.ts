import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderErrorDocs } from './error-docs';
import { ERROR_CODES, isErrorCode } from './errors';

/** The error table of gateway-spec.md, copied by hand: the registry must cover all of it. */
const SPEC_ERROR_TABLE: ReadonlyArray<readonly [code: string, status: number]> = [
  ['UNAUTHORIZED', 401],
  ['FORBIDDEN', 403],
  ['ADDRESS_NOT_AUTHORIZED', 403],
  ['NUMBER_NOT_OWNED', 403],
  ['NO_DEFAULT_ADDRESS', 400],
  ['VALIDATION_ERROR', 400],
  ['INVALID_REQUEST', 400],
  ['INVALID_RECIPIENT', 400],
  ['INVALID_PHONE_NUMBER', 400],
  ['NOT_FOUND', 404],
  ['REPLY_NOT_FOUND', 404],
  ['CHANNEL_NOT_SUPPORTED', 400],
  ['NO_CHANNEL_AVAILABLE', 400],
  ['FROM_INSTANCE_CANNOT_REACH', 400],
  ['NAME_REQUIRED', 400],
  ['CONVERSATION_NOT_FOUND', 404],
  ['CONVERSATION_NOT_READY', 409],
  ['GROUP_SMS_UNSUPPORTED', 400],
  ['INVALID_STATUS', 400],
  ['MISSING_EXTERNAL_ID', 400],
  ['ALREADY_UNSENT', 409],
  ['ALREADY_DELETED', 409],
  ['WEBHOOK_NOT_FOUND', 404],
  ['WEBHOOK_DUPLICATE', 409],
  ['WEBHOOK_NOT_CONFIGURED', 404],
  ['NOT_SCHEDULED', 400],
  ['INVALID_SCHEDULED_AT', 400],
  ['SCHEDULED_IN_PAST', 400],
  ['SCHEDULED_TOO_FAR', 400],
  ['DEPRECATED', 410],
  ['RATE_LIMIT_EXCEEDED', 429],
  ['PROVIDER_TIMEOUT', 504],
  ['EDIT_FAILED', 502],
  ['IMESSAGE_SEND_FAILED', 500],
  ['INTERNAL_ERROR', 500],
];

const docsPath = resolve(import.meta.dirname, '../../../docs/errors.md');

describe('the error-code registry', () => {
  it('holds the 35 codes of the spec', () => {
    expect(new Set(SPEC_ERROR_TABLE.map(([code]) => code)).size).toBe(35);
  });

  it.each(SPEC_ERROR_TABLE)('registers %s with HTTP %i, as the spec does', (code, status) => {
    expect(isErrorCode(code)).toBe(true);
    if (isErrorCode(code)) expect(ERROR_CODES[code].status).toBe(status);
  });

  it('gives every code an error status and a meaning', () => {
    for (const [code, { status, description }] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(description.trim(), code).not.toBe('');
    }
  });
});

describe('docs/errors.md', () => {
  it('is what `pnpm --filter @switchboard/contract docs:errors` generates', () => {
    const committed = readFileSync(docsPath, 'utf8');
    expect(
      committed,
      'docs/errors.md is stale: run `pnpm --filter @switchboard/contract docs:errors`',
    ).toBe(renderErrorDocs());
  });

  it('has one row per registered code with its status', () => {
    const committed = readFileSync(docsPath, 'utf8');
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(committed).toContain(`| \`${code}\` | ${status} |`);
    }
  });
});
