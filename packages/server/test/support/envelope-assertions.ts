import type { ErrorCode } from '@switchboard/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { bodyOf } from './test-app';

/** The failure envelope as the tests read it. */
export interface FailureBody {
  success: false;
  error: { code: ErrorCode; message: string };
  requestId: string;
}

/**
 * Asserts the spec's failure envelope: the status, the code, a message, and a requestId equal to
 * the `X-Request-Id` header. Returns the body.
 */
export function expectFailure(
  response: LightMyRequestResponse,
  status: number,
  code: ErrorCode,
): FailureBody {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = bodyOf<FailureBody>(response);
  expect(body).toEqual({
    success: false,
    error: { code, message: expect.any(String) },
    requestId: response.headers['x-request-id'],
  });
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

/** Asserts the success envelope and returns its `data`. */
export function expectSuccess<T = unknown>(response: LightMyRequestResponse, status = 200): T {
  expect(response.statusCode, response.body).toBe(status);
  const body = bodyOf<{ success: true; data: T; requestId: string }>(response);
  expect(body.success).toBe(true);
  expect(body.requestId).toBe(response.headers['x-request-id']);
  return body.data;
}
