import { describe, expect, it } from 'vitest';
import type { DeliveryRecord } from '../store/delivery-repository';
import { planAttempt } from './attempt-plan';
import type { DeliveryOutcome } from './delivery-client';

const NOW = Date.parse('2026-01-15T12:00:00.000Z');
const SCHEDULE = [1000, 5000];

function attempt(overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
    customerId: 'c1',
    webhookId: 'w1',
    targetUrl: null,
    eventId: 'evt_1',
    eventType: 'message.sent',
    attempt: 1,
    trigger: 'event',
    status: 'pending',
    statusCode: null,
    durationMs: null,
    error: null,
    responseBody: null,
    createdAt: new Date(NOW),
    attemptedAt: null,
    nextAttemptAt: new Date(NOW),
    leaseOwner: 'me',
    leaseUntil: new Date(NOW + 60_000),
    ...overrides,
  };
}

function outcome(
  kind: DeliveryOutcome['kind'],
  statusCode: number | null,
  retryAfter: string | null = null,
): DeliveryOutcome {
  return {
    kind,
    statusCode,
    durationMs: 12,
    error: kind === 'delivered' ? null : `receiver answered HTTP ${statusCode}`,
    retryAfter,
    responseBody: null,
  };
}

const plan = (delivery: DeliveryRecord, result: DeliveryOutcome) =>
  planAttempt({
    delivery,
    outcome: result,
    attemptedAt: new Date(NOW),
    now: NOW,
    schedule: SCHEDULE,
  });

describe('planAttempt', () => {
  it('records a 2xx as delivered and resets the streak', () => {
    expect(plan(attempt(), outcome('delivered', 204))).toEqual({
      result: {
        status: 'delivered',
        statusCode: 204,
        durationMs: 12,
        error: null,
        responseBody: null,
        attemptedAt: new Date(NOW),
        nextAttemptAt: null,
      },
      followUp: null,
      streak: 'reset',
    });
  });

  it("keeps the start of the receiver's answer, never half an emoji, and nothing for an empty one", () => {
    const answered = (responseBody: string) =>
      plan(attempt(), { ...outcome('terminal', 400), responseBody }).result.responseBody;
    expect(answered('{"error":"bad signature"}')).toBe('{"error":"bad signature"}');
    expect(answered('')).toBeNull();
    expect(answered('a'.repeat(3000))).toBe('a'.repeat(1024));
    // An emoji (two UTF-16 units) straddling the cut goes whole or not at all.
    expect(answered(`${'a'.repeat(1023)}😀tail`)).toBe('a'.repeat(1023));
  });

  it('fails a terminal 4xx once, without touching the streak', () => {
    const result = plan(attempt(), outcome('terminal', 410));
    expect(result.result.status).toBe('failed');
    expect(result.followUp).toBeNull();
    expect(result.streak).toBe('unchanged');
  });

  it('schedules the next attempt of the chain after a retryable failure', () => {
    const result = plan(attempt({ attempt: 2 }), outcome('retryable', 503));
    expect(result.result).toMatchObject({
      status: 'retrying',
      nextAttemptAt: new Date(NOW + 5000),
    });
    expect(result.followUp).toMatchObject({
      attempt: 3,
      trigger: 'retry',
      status: 'pending',
      eventId: 'evt_1',
      webhookId: 'w1',
      nextAttemptAt: new Date(NOW + 5000),
      leaseOwner: null,
    });
    expect(result.followUp?.id).not.toBe(attempt().id);
    expect(result.streak).toBe('unchanged');
  });

  it('honours a longer Retry-After, capped at the longest step', () => {
    expect(plan(attempt(), outcome('retryable', 429, '3')).result.nextAttemptAt).toEqual(
      new Date(NOW + 3000),
    );
    expect(plan(attempt(), outcome('retryable', 429, '3600')).result.nextAttemptAt).toEqual(
      new Date(NOW + 5000),
    );
  });

  it('ends the chain after the last retry and counts it exhausted', () => {
    const result = plan(attempt({ attempt: 3 }), outcome('retryable', 500));
    expect(result.result).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(result.followUp).toBeNull();
    expect(result.streak).toBe('exhausted');
  });

  it.each(['test', 'redelivery'] as const)(
    'never retries a %s attempt nor counts its failure',
    (trigger) => {
      const result = plan(attempt({ trigger }), outcome('retryable', 500));
      expect(result.result.status).toBe('failed');
      expect(result.followUp).toBeNull();
      expect(result.streak).toBe('unchanged');
    },
  );
});
