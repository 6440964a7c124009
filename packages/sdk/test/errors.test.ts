import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GoneError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  Switchboard,
  SwitchboardError,
} from '../src/index';
import {
  failure,
  type LoopbackServer,
  sendJson,
  startLoopbackServer,
} from './support/loopback-server';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failWith(status: number, body: unknown, headers: Record<string, string> = {}) {
  server = await startLoopbackServer((_req, res) => {
    if (typeof body === 'string') {
      res.writeHead(status, { 'content-type': 'text/html', ...headers });
      res.end(body);
    } else {
      sendJson(res, status, body, headers);
    }
  });
  const client = new Switchboard({ apiKey: 'sk_test', baseUrl: server.baseUrl, maxRetries: 0 });
  const error = await client.webhooks.get('0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f').then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { error, client };
}

describe('error mapping', () => {
  it.each([
    [400, 'VALIDATION_ERROR', BadRequestError],
    [401, 'UNAUTHORIZED', AuthenticationError],
    [403, 'FORBIDDEN', PermissionDeniedError],
    [404, 'WEBHOOK_NOT_FOUND', NotFoundError],
    [409, 'WEBHOOK_DUPLICATE', ConflictError],
    [410, 'DEPRECATED', GoneError],
    [429, 'RATE_LIMIT_EXCEEDED', RateLimitError],
    [500, 'INTERNAL_ERROR', InternalServerError],
    [502, 'EDIT_FAILED', InternalServerError],
    [504, 'PROVIDER_TIMEOUT', InternalServerError],
  ] as const)('maps %i %s to %o', async (status, code, ErrorClass) => {
    const { error, client } = await failWith(
      status,
      failure(code, `it failed: ${code}`, 'req_42'),
      {
        'x-ratelimit-remaining': '7',
      },
    );
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(SwitchboardError);
    const err = error as SwitchboardError;
    expect(err.status).toBe(status);
    expect(err.code).toBe(code);
    expect(err.message).toBe(`it failed: ${code}`);
    expect(err.requestId).toBe('req_42');
    expect(err.headers?.get('x-ratelimit-remaining')).toBe('7');
    expect(err.name).toBe(ErrorClass.name);
    expect(client.lastRequestId).toBe('req_42');
  });

  it('gives a RateLimitError the Retry-After seconds', async () => {
    const { error } = await failWith(429, failure('RATE_LIMIT_EXCEEDED', 'slow down'), {
      'retry-after': '17',
    });
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(17);
  });

  it('keeps an unknown status in the base class', async () => {
    const { error } = await failWith(415, failure('UNSUPPORTED_MEDIA_TYPE', 'json only'));
    expect(error?.constructor).toBe(SwitchboardError);
    expect((error as SwitchboardError).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('survives a body that is not a Switchboard envelope', async () => {
    const { error } = await failWith(502, '<html>Bad gateway</html>', {
      'x-request-id': 'req_proxy',
    });
    expect(error).toBeInstanceOf(InternalServerError);
    const err = error as SwitchboardError;
    expect(err.code).toBeUndefined();
    expect(err.message).toContain('HTTP 502');
    expect(err.body).toBe('<html>Bad gateway</html>');
    expect(err.requestId).toBe('req_proxy');
  });

  it('drops a code this SDK does not know but keeps the message and body', async () => {
    const body = failure('SOMETHING_NEW', 'a newer server');
    const { error } = await failWith(400, body);
    const err = error as SwitchboardError;
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.code).toBeUndefined();
    expect(err.message).toBe('a newer server');
    expect(err.body).toEqual(body);
  });
});

describe('SwitchboardError.fromResponse', () => {
  it('reads an HTTP-date Retry-After', () => {
    const date = new Date(Date.now() + 30_000).toUTCString();
    const error = SwitchboardError.fromResponse({
      status: 429,
      body: failure('RATE_LIMIT_EXCEEDED', 'slow down'),
      headers: new Headers({ 'retry-after': date }),
    });
    expect(error).toBeInstanceOf(RateLimitError);
    const retryAfter = (error as RateLimitError).retryAfter ?? 0;
    expect(retryAfter).toBeGreaterThan(27);
    expect(retryAfter).toBeLessThanOrEqual(30);
  });
});
