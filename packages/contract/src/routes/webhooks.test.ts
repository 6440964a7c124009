import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract } from '../contract';
import { ERROR_CODE_PARAM } from '../schemas/common';
import { Webhook, WebhookWithSecret } from '../schemas/webhook';

const { webhooks } = contract;
const create = webhooks.create.body;
const update = webhooks.update.body;

const valid = {
  url: 'https://example.com/hooks/switchboard',
  events: ['message.sent', 'message.delivered'],
};

/** The paths and messages of a failed parse, for readable assertions. */
function issues(schema: z.ZodTypeAny, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
    // The server answers a coded issue with that code; webhooks have none, so VALIDATION_ERROR.
    errorCode: issue.code === 'custom' ? issue.params?.[ERROR_CODE_PARAM] : undefined,
  }));
}

describe('POST /v1/webhooks body', () => {
  it.each([
    ['the minimal registration', valid],
    ['the wildcard', { ...valid, events: ['*'] }],
    ['a name of 100 characters', { ...valid, name: 'n'.repeat(100) }],
    ['a secret of 16 characters', { ...valid, secret: 's'.repeat(16) }],
    ['a secret of 256 characters', { ...valid, secret: 's'.repeat(256) }],
    // http passes the contract; the server's URL guard requires https unless
    // WEBHOOK_ALLOW_PRIVATE_URLS=true (see docs/decisions/0141-outbound-urls-syntax-in-the-contract-scheme-and.md).
    ['an http URL', { ...valid, url: 'http://example.com/hook' }],
    [
      'a URL with port, path and query',
      { ...valid, url: 'https://hooks.example.com:8443/a/b?c=d' },
    ],
    ['every non-stream event type', { ...valid, events: ['webhook.test', 'facetime.incoming'] }],
  ])('accepts %s', (_, body) => {
    expect(issues(create, body)).toEqual([]);
  });

  it.each([
    ['no url', { events: ['*'] }, 'url'],
    ['a URL that is not one', { ...valid, url: 'example.com/hook' }, 'url'],
    ['an ftp URL', { ...valid, url: 'ftp://example.com/hook' }, 'url'],
    [
      'a URL over 2048 characters',
      { ...valid, url: `https://example.com/${'a'.repeat(2048)}` },
      'url',
    ],
    ['no events', { url: valid.url }, 'events'],
    ['an empty events list', { ...valid, events: [] }, 'events'],
    ['an unknown event type', { ...valid, events: ['message.exploded'] }, 'events.0'],
    ['a stream-only event type', { ...valid, events: ['whatsapp.status'] }, 'events.0'],
    ['a duplicated event type', { ...valid, events: ['message.sent', 'message.sent'] }, 'events.1'],
    ['the wildcard mixed with types', { ...valid, events: ['*', 'message.sent'] }, 'events'],
    ['events as a string', { ...valid, events: '*' }, 'events'],
    ['a name of 101 characters', { ...valid, name: 'n'.repeat(101) }, 'name'],
    ['an empty name', { ...valid, name: '' }, 'name'],
    ['a secret of 15 characters', { ...valid, secret: 's'.repeat(15) }, 'secret'],
    ['a secret of 257 characters', { ...valid, secret: 's'.repeat(257) }, 'secret'],
    ['a secret with whitespace', { ...valid, secret: 'sixteen chars ok' }, 'secret'],
    ['an unknown field', { ...valid, active: true }, ''],
  ])('rejects %s with VALIDATION_ERROR naming %s', (_, body, path) => {
    const found = issues(create, body);
    expect(found.map((issue) => issue.path)).toContain(path);
    expect(found.every((issue) => issue.errorCode === undefined)).toBe(true);
  });
});

describe('PATCH /v1/webhooks/{id} body', () => {
  it.each([
    ['active alone', { active: false }],
    ['a new url', { url: 'https://example.org/new' }],
    ['new events', { events: ['*'] }],
    ['a new secret', { secret: 'a-brand-new-secret-value' }],
    ['a null name (clears it)', { name: null }],
    ['every field', { ...valid, name: 'x', secret: 's'.repeat(16), active: true }],
  ])('accepts %s', (_, body) => {
    expect(issues(update, body)).toEqual([]);
  });

  it.each([
    ['an empty body', {}],
    ['only undefined fields', { url: undefined }],
    ['an ftp url', { url: 'ftp://example.com' }],
    ['an empty events list', { events: [] }],
    ['an unknown field', { enabled: true }],
    ['a non-boolean active', { active: 'false' }],
    ['a short secret', { secret: 'short' }],
  ])('rejects %s', (_, body) => {
    expect(issues(update, body)).not.toEqual([]);
  });

  it('names the fields when none is given', () => {
    expect(issues(update, {})[0]?.message).toMatch(/url, events, secret, name, active/);
  });
});

describe('webhook paths and queries', () => {
  it('keeps the id a plain string so a malformed id answers WEBHOOK_NOT_FOUND, not VALIDATION_ERROR', () => {
    for (const route of [webhooks.get, webhooks.update, webhooks.delete, webhooks.test]) {
      expect(route.pathParams.safeParse({ id: 'not-a-uuid' }).success).toBe(true);
    }
    expect(
      webhooks.redeliver.pathParams.safeParse({ id: 'x', deliveryId: 'not-a-uuid' }).success,
    ).toBe(true);
  });

  it('pages the delivery log (limit 1 to 100, default 50) and filters it by status', () => {
    const query = webhooks.listDeliveries.query;
    expect(query.parse({})).toEqual({ limit: 50 });
    expect(query.parse({ limit: '10', status: 'retrying' })).toEqual({
      limit: 10,
      status: 'retrying',
    });
    for (const bad of [{ limit: '0' }, { limit: '101' }, { status: 'lost' }]) {
      expect(query.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('webhook responses', () => {
  it('never carries the secret on a plain webhook', () => {
    expect(Object.keys(Webhook.shape)).not.toContain('secret');
    const parsed = Webhook.parse({
      id: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
      name: null,
      url: valid.url,
      events: ['*'],
      active: true,
      createdAt: '2026-11-21T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:00.000Z',
      secret: 'leaked-by-mistake',
    });
    expect(parsed).not.toHaveProperty('secret');
  });

  it('requires the secret on rotation and makes it optional on creation', () => {
    expect(WebhookWithSecret.shape.secret.isOptional()).toBe(false);
    const created = webhooks.create.responses[201].shape.data;
    expect(created.shape.secret.isOptional()).toBe(true);
  });

  it('answers with the statuses the spec and issue 5 give', () => {
    expect(Object.keys(webhooks.create.responses)).toContain('201');
    expect(Object.keys(webhooks.redeliver.responses)).toContain('202');
    expect(Object.keys(webhooks.create.responses)).toEqual(
      expect.arrayContaining(['400', '401', '403', '409', '429', '500']),
    );
    expect(Object.keys(webhooks.get.responses)).toContain('404');
    expect(Object.keys(webhooks.legacy.delete.responses)).toContain('404');
  });
});
