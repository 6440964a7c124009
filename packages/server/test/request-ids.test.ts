import { describe, expect, it } from 'vitest';
import { createCustomerWithKey } from './support/admin-helpers';
import { bearer, bodyOf, buildTestApp } from './support/test-app';

const GENERATED_REQUEST_ID =
  /^req_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const GENERATED_CORRELATION_ID = /^cor_[0-9a-f]{32}$/;

describe('X-Request-Id', () => {
  it('mints req_<uuid v7> when none is given, in the header and the body', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({ method: 'GET', url: '/v1/numbers' });
    expect(response.headers['x-request-id']).toMatch(GENERATED_REQUEST_ID);
    expect(bodyOf(response).requestId).toBe(response.headers['x-request-id']);
  });

  it("keeps the caller's value when it is 1 to 128 characters of [A-Za-z0-9._-]", async () => {
    const { app } = await buildTestApp();
    for (const supplied of ['abc', 'trace.01_A-b', 'x'.repeat(128)]) {
      const response = await app.inject({
        method: 'GET',
        url: '/nowhere',
        headers: { 'x-request-id': supplied },
      });
      expect(response.headers['x-request-id']).toBe(supplied);
      expect(bodyOf(response).requestId).toBe(supplied);
    }
  });

  it('replaces a value that is too long or has other characters', async () => {
    const { app } = await buildTestApp();
    for (const supplied of ['x'.repeat(129), 'has space', 'a/b', 'ünï', 'a;b', '']) {
      const response = await app.inject({
        method: 'GET',
        url: '/health',
        headers: { 'x-request-id': supplied },
      });
      expect(response.headers['x-request-id']).toMatch(GENERATED_REQUEST_ID);
    }
  });
});

describe('X-Correlation-Id', () => {
  it('echoes a valid cor_<32 hex> value on success and error responses', async () => {
    const { app } = await buildTestApp();
    const supplied = 'cor_0123456789abcdef0123456789ABCDEF';
    for (const url of ['/health', '/v1/numbers', '/nowhere']) {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { 'x-correlation-id': supplied },
      });
      expect(response.headers['x-correlation-id']).toBe(supplied);
    }
  });

  it('mints a fresh one when absent or not cor_<32 hex>', async () => {
    const { app } = await buildTestApp();
    const seen = new Set<string>();
    for (const supplied of [
      undefined,
      'cor_123',
      `cor_${'a'.repeat(31)}g`,
      `cor_${'a'.repeat(33)}`,
      `COR_${'a'.repeat(32)}`,
      'req_0123',
    ]) {
      const response = await app.inject({
        method: 'GET',
        url: '/health',
        headers: supplied === undefined ? {} : { 'x-correlation-id': supplied },
      });
      const id = response.headers['x-correlation-id'] as string;
      expect(id).toMatch(GENERATED_CORRELATION_ID);
      seen.add(id);
    }
    expect(seen.size).toBe(6);
  });
});

describe('request logs', () => {
  it('carry requestId and correlationId, and never the API key', async () => {
    const t = await buildTestApp();
    const { key } = await createCustomerWithKey(t.app);
    const correlationId = 'cor_fedcba9876543210fedcba9876543210';
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/numbers',
      headers: { ...bearer(key), 'x-correlation-id': correlationId, 'x-request-id': 'trace-42' },
    });
    expect(response.statusCode).toBe(200);
    const lines = t.logs.filter((line) => line.requestId === 'trace-42');
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    for (const line of lines) expect(line.correlationId).toBe(correlationId);
    const everything = JSON.stringify(t.logs);
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(key.slice(3));
    expect(everything).not.toMatch(/authorization/i);
  });
});
