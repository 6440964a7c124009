import { ERROR_CODES, type ErrorCode } from './errors';

/** Escapes a registry description for a Markdown table cell. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/**
 * Renders `docs/errors.md` from {@link ERROR_CODES}: the failure envelope, then one table row per
 * code in registry order. `scripts/generate-error-docs.ts` writes it and a test keeps it current.
 */
export function renderErrorDocs(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => {
    const { status, description } = ERROR_CODES[code];
    return `| \`${code}\` | ${status} | ${cell(description)} |`;
  });
  return [
    '# Error codes',
    '',
    '<!-- Generated from packages/contract/src/errors.ts by',
    '     `pnpm --filter @switchboard/contract docs:errors`. Do not edit by hand. -->',
    '',
    'Every failure is answered with an HTTP status of 400 or more and this JSON envelope:',
    '',
    '```json',
    '{',
    '  "success": false,',
    '  "error": { "code": "VALIDATION_ERROR", "message": "content.text: must be at most 10000 characters" },',
    '  "requestId": "req_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f"',
    '}',
    '```',
    '',
    '- `error.code` is one of the codes below and is stable: branch on it, not on the message.',
    '- `error.message` is for humans; for validation errors it names the offending field.',
    '- `requestId` is also on every success response; quote it when reporting a problem. A valid',
    '  `X-Request-Id` request header (up to 128 characters of `[A-Za-z0-9._-]`) becomes the `requestId`.',
    '- `429 RATE_LIMIT_EXCEEDED` comes with a `Retry-After` header (seconds).',
    '- The OpenAPI file (openapi/openapi.json) lists the codes each operation can answer.',
    '',
    '| Code | HTTP | Meaning |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
