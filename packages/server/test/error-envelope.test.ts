import { describe, expect, it } from 'vitest';
import { adminHeaders, createCustomerWithKey } from './support/admin-helpers';
import { contractRoutes } from './support/contract-routes';
import { expectFailure, expectSuccess } from './support/envelope-assertions';
import { bearer, bodyOf, buildTestApp } from './support/test-app';

describe('the failure envelope', () => {
  it('answers unknown routes with 404 NOT_FOUND', async () => {
    const { app } = await buildTestApp();
    for (const [method, url] of [
      ['GET', '/v2/messages'],
      ['POST', '/nothing-here'],
      ['GET', '/v1/numbers/extra/segments'],
    ] as const) {
      const body = expectFailure(await app.inject({ method, url }), 404, 'NOT_FOUND');
      expect(body.error.message).toContain(url);
    }
  });

  it('answers malformed percent-encoding and over-long path parameters in the envelope, never Fastify’s body', async () => {
    const { app } = await buildTestApp();
    const { key } = await createCustomerWithKey(app);
    for (const url of [
      '/v1/messages/%',
      '/v1/messages/%ZZ',
      '/v1/messages/%C0%AF',
      '/v1/chats/%E0%A4%A/typing',
      '/health%',
    ]) {
      const body = expectFailure(
        await app.inject({ method: 'GET', url, headers: bearer(key) }),
        400,
        'VALIDATION_ERROR',
      );
      expect(body.error.message).toContain('percent-encoding');
    }
    const long = expectFailure(
      await app.inject({
        method: 'GET',
        url: `/v1/messages/${'a'.repeat(501)}`,
        headers: bearer(key),
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(long.error.message).toContain('500 characters');
  });

  it('refuses NUL characters in the path, the query and JSON bodies with 400 VALIDATION_ERROR', async () => {
    const { app } = await buildTestApp();
    const { key } = await createCustomerWithKey(app);
    for (const url of [
      '/v1/messages/a%00b',
      '/v1/messages?to=%2B1415%00',
      '/v1/chats/%00/typing',
    ]) {
      const body = expectFailure(
        await app.inject({ method: 'GET', url, headers: bearer(key) }),
        400,
        'VALIDATION_ERROR',
      );
      expect(body.error.message).toContain('NUL');
    }
    const body = expectFailure(
      await app.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: '{"to":"+14155550123","text":"a\\u0000b"}',
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(body.error.message).toContain('NUL');
    // An escaped backslash before `u0000` is text, not a NUL: the body goes on to validation.
    const text = await app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: '{"to":"+14155550123","text":"a\\\\u0000b"}',
    });
    expect(bodyOf<{ error?: { message: string } }>(text).error?.message ?? '').not.toContain('NUL');
  });

  it('answers the root with a pointer to /health and the documentation', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(bodyOf(response)).toMatchObject({ name: 'Switchboard', health: '/health' });
  });

  it('answers a wrong method on an existing path with 405 METHOD_NOT_ALLOWED and Allow', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({ method: 'DELETE', url: '/v1/numbers' });
    expectFailure(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.allow).toBe('GET, HEAD');
    const health = await app.inject({ method: 'POST', url: '/health' });
    expectFailure(health, 405, 'METHOD_NOT_ALLOWED');
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({
      method: 'POST',
      url: '/admin/v1/customers',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: '{"name": "Acme",',
    });
    const body = expectFailure(response, 400, 'VALIDATION_ERROR');
    expect(body.error.message).toBe('body: malformed JSON');
  });

  it('answers a body over BODY_LIMIT_BYTES with 413 PAYLOAD_TOO_LARGE', async () => {
    const { app } = await buildTestApp({ env: { BODY_LIMIT_BYTES: '2048' } });
    const response = await app.inject({
      method: 'POST',
      url: '/admin/v1/customers',
      headers: adminHeaders,
      payload: { name: 'x'.repeat(4000) },
    });
    expectFailure(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const { app } = await buildTestApp();
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'text/xml']) {
      const response = await app.inject({
        method: 'POST',
        url: '/admin/v1/customers',
        headers: { ...adminHeaders, 'content-type': contentType },
        payload: 'name=Acme',
      });
      expectFailure(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('accepts an empty body sent with Content-Type: application/json', async () => {
    const { app } = await buildTestApp();
    const customer = expectSuccess<{ id: string }>(
      await app.inject({
        method: 'POST',
        url: '/admin/v1/customers',
        headers: adminHeaders,
        payload: { name: 'Acme' },
      }),
      201,
    );
    const response = await app.inject({
      method: 'POST',
      url: `/admin/v1/customers/${customer.id}/api-keys`,
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: '',
    });
    expectSuccess(response, 201);
  });

  it('answers schema violations with 400 VALIDATION_ERROR naming the field', async () => {
    const { app } = await buildTestApp();
    const post = (payload: object) =>
      app.inject({ method: 'POST', url: '/admin/v1/customers', headers: adminHeaders, payload });

    const missing = expectFailure(await post({}), 400, 'VALIDATION_ERROR');
    expect(missing.error.message).toBe('name: Required');
    const wrongType = expectFailure(await post({ name: 42 }), 400, 'VALIDATION_ERROR');
    expect(wrongType.error.message).toMatch(/^name: Expected string/);
    const unknownField = expectFailure(
      await post({ name: 'A', plan: 'x' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(unknownField.error.message).toContain("'plan'");
    const nested = expectFailure(
      await post({ name: 'A', settings: { otpHandling: 'drop' } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(nested.error.message).toMatch(/^settings\.otpHandling: /);
    const badPath = expectFailure(
      await app.inject({
        method: 'DELETE',
        url: '/admin/v1/customers/not-a-uuid',
        headers: adminHeaders,
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(badPath.error.message).toMatch(/^id: /);
  });

  it('answers a rule that has its own spec code with that code', async () => {
    const { app } = await buildTestApp();
    const { customer } = await createCustomerWithKey(app);
    const response = await app.inject({
      method: 'POST',
      url: `/admin/v1/customers/${customer.id}/numbers`,
      headers: adminHeaders,
      payload: { phoneNumber: '415-555-0100', instanceId: customer.id },
    });
    const body = expectFailure(response, 400, 'INVALID_PHONE_NUMBER');
    expect(body.error.message).toMatch(/^phoneNumber: /);
  });

  it('answers an unexpected failure with 500 INTERNAL_ERROR and keeps the details in the log', async () => {
    const t = await buildTestApp();
    const { key } = await createCustomerWithKey(t.app);
    await t.app.store.close(); // the database goes away under the running app
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/numbers',
      headers: bearer(key),
    });
    const body = expectFailure(response, 500, 'INTERNAL_ERROR');
    expect(body.error.message).toBe('An unexpected error occurred');
    expect(response.body).not.toMatch(/database|sqlite|select|stack|\bat /i);
    const logged = t.logs.find((line) => line.msg === 'unexpected error');
    expect(logged?.requestId).toBe(body.requestId);
    // SQLite's and PostgreSQL's words for a closed database.
    expect(JSON.stringify(logged?.err)).toMatch(
      /database connection is not open|Cannot use a pool after calling end/,
    );
  });

  it('answers the routes not built yet with 501 NOT_IMPLEMENTED in the envelope', async () => {
    const { app } = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '10000' } });
    const { key } = await createCustomerWithKey(app);
    for (const route of contractRoutes()) {
      // The event stream is built and never ends, so inject would wait for it forever.
      if (route.metadata.auth !== undefined || route.name === 'events.stream') continue;
      const response = await app.inject({
        method: route.method,
        url: route.url,
        headers: bearer(key),
      });
      if (response.statusCode === 501) {
        expect(bodyOf(response)).toEqual({
          success: false,
          error: { code: 'NOT_IMPLEMENTED', message: expect.stringContaining(route.path) },
          requestId: response.headers['x-request-id'],
        });
      }
    }
  });
});
