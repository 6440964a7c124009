import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './document';
import { OPENAPI_TAGS } from './tags';

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const doc = buildOpenApiDocument();
const operations = Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(
  ([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      label: `${method.toUpperCase()} ${path}`,
      op: item[method] as Operation,
    })),
);
/** `GET /v1/chats/{chatId}` → `GET /v1/chats/{}`: path parameter names are not the spec's concern. */
const shape = (label: string) => label.replace(/\{[^}]+\}/g, '{}');
const labels = new Set(operations.map(({ label }) => shape(label)));

/** The 42 operations of the spec under `/v1` (issue 2), by resource. */
const SPEC_OPERATIONS: Record<string, string[]> = {
  messages: [
    'POST /v1/messages',
    'GET /v1/messages',
    'GET /v1/messages/scheduled',
    'GET /v1/messages/{}',
    'PUT /v1/messages/{}',
    'DELETE /v1/messages/{}',
    'POST /v1/messages/{}/unsend',
    'POST /v1/messages/{}/retry',
    'POST /v1/messages/{}/reactions',
    'DELETE /v1/messages/{}/schedule',
  ],
  chats: [
    'POST /v1/chats/groups',
    'GET /v1/chats/{}',
    'PUT /v1/chats/{}/name',
    'POST /v1/chats/{}/participants',
    'DELETE /v1/chats/{}/participants/{}',
    'POST /v1/chats/{}/leave',
    'POST /v1/chats/{}/read',
    'POST /v1/chats/{}/unread',
    'POST /v1/chats/{}/typing',
  ],
  capabilities: ['GET /v1/capabilities/{}'],
  numbers: ['GET /v1/numbers'],
  webhooks: [
    'POST /v1/webhooks',
    'GET /v1/webhooks/list',
    'GET /v1/webhooks/{}',
    'PATCH /v1/webhooks/{}',
    'DELETE /v1/webhooks/{}',
    'POST /v1/webhooks/{}/test',
    'POST /v1/webhooks/{}/rotate-secret',
  ],
  legacyWebhooks: [
    'GET /v1/webhooks',
    'PUT /v1/webhooks',
    'DELETE /v1/webhooks',
    'POST /v1/webhooks/test',
    'POST /v1/webhooks/rotate-secret',
  ],
  whatsapp: [
    'GET /v1/whatsapp',
    'POST /v1/whatsapp/numbers/{}/enable',
    'GET /v1/whatsapp/numbers/{}/status',
    'GET /v1/whatsapp/numbers/{}/qr',
    'POST /v1/whatsapp/numbers/{}/pairing-code',
    'POST /v1/whatsapp/numbers/{}/disconnect',
    'DELETE /v1/whatsapp/numbers/{}',
    'GET /v1/whatsapp/numbers/{}/check',
    'GET /v1/whatsapp/numbers/{}/signup-codes',
  ],
};

/** Operations beyond the spec's table: the webhook delivery log of issue 5. */
const DELIVERY_LOG_OPERATIONS = [
  'GET /v1/webhooks/{}/deliveries',
  'POST /v1/webhooks/{}/deliveries/{}/redeliver',
];

/** The opt-out ledger (issue 15): beyond the spec. */
const OPT_OUT_OPERATIONS = ['GET /v1/opt-outs'];
/** Forgetting a contact (issue 59): beyond the spec's operations. */
const CONTACT_ERASURE_OPERATIONS = ['POST /v1/contact-erasures', 'GET /v1/contact-erasures'];

/** The callback secret and delivery log (issue 18): beyond the spec. */
/** The routing trace of a message (issue 55): an addition of ours, not in the spec. */
const ROUTING_TRACE_OPERATIONS = ['GET /v1/messages/{}/routing'];
/** A message's events and their deliveries (issue 55). */
const MESSAGE_EVENTS_OPERATIONS = ['GET /v1/messages/{}/events'];

/** A number's send policy as its customer reads it (issue 56). */
const SEND_POLICY_OPERATIONS = ['GET /v1/numbers/{}/send-policy'];

const CALLBACK_OPERATIONS = [
  'GET /v1/callbacks/secret',
  'POST /v1/callbacks/secret/rotate',
  'GET /v1/callbacks/deliveries',
];

/** The simulator's sandbox (issue 6): beyond the spec, counted on their own. */
const SANDBOX_OPERATION_COUNT = 13;
const isSandbox = (label: string) => / \/v1\/sandbox\//.test(label);

const isUnauthenticated = (path: string) =>
  path === '/' ||
  path === '/health' ||
  path === '/openapi.json' ||
  path === '/docs' ||
  path.startsWith('/v1/attachments/') ||
  path.startsWith('/providers/');
const isAdmin = (path: string) => path === '/admin' || path.startsWith('/admin/');
/** `GET /metrics`: the operator token or `METRICS_TOKEN` (unless the operator opened it). */
const isMetrics = (path: string) => path === '/metrics';

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with contact and license information', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.contact?.name).toBeTruthy();
    expect(doc.info.license?.name).toBe('MIT');
  });

  it('gives every operation a unique camelCase operationId, a summary and one declared tag', () => {
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
    const ids = new Set<string>();
    for (const { label, op } of operations) {
      expect(op.operationId, label).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(ids.has(op.operationId ?? ''), `${label}: duplicate operationId`).toBe(false);
      ids.add(op.operationId ?? '');
      expect(op.summary, label).toBeTruthy();
      expect(op.tags, label).toHaveLength(1);
      expect(declared.get(op.tags?.[0] ?? ''), `${label}: tag not declared globally`).toBeTruthy();
    }
  });

  it('declares only tags that operations use, each known and described', () => {
    const used = new Set(operations.flatMap(({ op }) => op.tags ?? []));
    for (const tag of doc.tags ?? []) {
      expect(used.has(tag.name), tag.name).toBe(true);
      expect(OPENAPI_TAGS.map((known) => known.name)).toContain(tag.name);
      expect(tag.description, tag.name).toBeTruthy();
    }
  });

  it('derives operationIds from the contract path', () => {
    const byLabel = new Map(operations.map(({ label, op }) => [label, op.operationId]));
    expect(byLabel.get('POST /v1/webhooks')).toBe('webhooksCreate');
    expect(byLabel.get('PUT /v1/webhooks')).toBe('webhooksLegacyPut');
    expect(byLabel.get('GET /health')).toBe('healthGet');
  });

  it('secures every operation with the API key, except the root, health, the documentation, attachments, the provider ingress, metrics and admin', () => {
    expect(doc.security).toEqual([{ apiKey: [] }]);
    expect(doc.components?.securitySchemes?.apiKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    for (const { path, label, op } of operations) {
      const effective = op.security ?? doc.security;
      if (isUnauthenticated(path)) expect(effective, label).toEqual([]);
      else if (isAdmin(path)) expect(effective, label).toEqual([{ adminToken: [] }]);
      else if (isMetrics(path)) {
        expect(effective, label).toEqual([{ adminToken: [] }, { metricsToken: [] }]);
      } else expect(effective, label).toEqual([{ apiKey: [] }]);
    }
  });

  it('documents 401, 403, 429 and 500 on every operation that takes an API key', () => {
    for (const { path, label, op } of operations) {
      if (isUnauthenticated(path) || isAdmin(path) || isMetrics(path)) continue;
      for (const status of ['401', '403', '429', '500']) {
        expect(op.responses[status], `${label} lacks ${status}`).toBeDefined();
      }
    }
  });

  it('documents 401 on every admin operation', () => {
    for (const { path, label, op } of operations) {
      if (isAdmin(path)) expect(op.responses['401'], label).toBeDefined();
    }
  });

  it.each(Object.entries(SPEC_OPERATIONS))(
    'lists every %s operation of the spec',
    (_, expected) => {
      for (const label of expected) expect(labels, label).toContain(label);
    },
  );

  it("has exactly the 42 operations of the spec under /v1, besides events, attachments, the delivery log, opt-outs, contact erasures, callbacks, the routing trace, a message's events, send policies and the sandbox", () => {
    const expected = Object.values(SPEC_OPERATIONS).flat();
    expect(expected).toHaveLength(42);
    const actual = [...labels].filter(
      (label) =>
        / \/v1\//.test(`${label}/`) &&
        !/ \/v1\/(events|attachments)(\/|$)/.test(label) &&
        !DELIVERY_LOG_OPERATIONS.includes(label) &&
        !OPT_OUT_OPERATIONS.includes(label) &&
        !CONTACT_ERASURE_OPERATIONS.includes(label) &&
        !CALLBACK_OPERATIONS.includes(label) &&
        !ROUTING_TRACE_OPERATIONS.includes(label) &&
        !MESSAGE_EVENTS_OPERATIONS.includes(label) &&
        !SEND_POLICY_OPERATIONS.includes(label) &&
        !isSandbox(label),
    );
    expect(actual.sort()).toEqual([...expected].sort());
  });

  it('has the sandbox operations under /v1/sandbox, tagged Sandbox', () => {
    const sandbox = operations.filter(({ label }) => isSandbox(label));
    expect(sandbox).toHaveLength(SANDBOX_OPERATION_COUNT);
    for (const { label, op } of sandbox) expect(op.tags, label).toEqual(['Sandbox']);
  });

  it('has the event stream, attachment download, health and delivery-log operations', () => {
    for (const label of [
      'GET /v1/events',
      'GET /v1/attachments/{}',
      'GET /health',
      ...DELIVERY_LOG_OPERATIONS,
      ...CALLBACK_OPERATIONS,
      ...OPT_OUT_OPERATIONS,
      ...SEND_POLICY_OPERATIONS,
    ]) {
      expect(labels, label).toContain(label);
    }
  });

  it('marks the legacy webhook endpoints deprecated under their own tag', () => {
    const legacy = new Set(SPEC_OPERATIONS.legacyWebhooks);
    for (const { label, op } of operations) {
      if (!legacy.has(shape(label))) continue;
      expect(op.deprecated, label).toBe(true);
      expect(op.tags, label).toEqual(['Webhooks (legacy)']);
    }
  });

  it('holds the main resources as reusable components', () => {
    const schemas = doc.components?.schemas ?? {};
    for (const name of [
      'Message',
      'Chat',
      'Webhook',
      'WebhookWithSecret',
      'CreateWebhookRequest',
      'UpdateWebhookRequest',
      'WebhookTestResult',
      'WebhookDelivery',
      'WebhookDeliveryList',
      'SenderNumber',
      'CapabilityRecord',
      'WhatsAppSession',
      'Event',
      'ErrorEnvelope',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
  });

  it('references components instead of inlining them, and every reference resolves', () => {
    const json = JSON.stringify(doc);
    const schemas = doc.components?.schemas ?? {};
    for (const [, name] of json.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      expect(schemas[name ?? ''], `unresolved $ref ${name}`).toBeDefined();
    }
    // A `title` left in a path's schema would be a component that was not hoisted.
    expect(JSON.stringify(doc.paths)).not.toContain('"title"');
  });

  it('writes null the OpenAPI 3.1 way, never with the 3.0 `nullable` keyword', () => {
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
    const legacyGet = (doc.paths['/v1/webhooks'] as Record<string, Record<string, unknown>>).get;
    expect(legacyGet).toHaveProperty(
      ['responses', '200', 'content', 'application/json', 'schema', 'properties', 'data'],
      { anyOf: [{ $ref: '#/components/schemas/Webhook' }, { type: 'null' }] },
    );
    expect(doc.components?.schemas?.WebhookDelivery).toHaveProperty(
      ['properties', 'statusCode', 'type'],
      ['integer', 'null'],
    );
  });

  it('shows examples on the webhook requests and responses', () => {
    const create = (doc.paths['/v1/webhooks'] as Record<string, Record<string, unknown>>).post as {
      requestBody: { content: Record<string, { example?: unknown }> };
      responses: Record<
        string,
        { content: Record<string, { example?: unknown; examples?: object }> }
      >;
    };
    expect(create.requestBody.content['application/json']?.example).toMatchObject({
      url: expect.stringMatching(/^https:\/\//),
    });
    expect(create.responses['201']?.content['application/json']?.example).toMatchObject({
      success: true,
      data: { secret: expect.any(String) },
    });
    expect(create.responses['409']?.content['application/json']?.examples).toHaveProperty(
      'WEBHOOK_DUPLICATE.value.error.code',
      'WEBHOOK_DUPLICATE',
    );
  });

  it('is generated byte for byte the same every time', () => {
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(doc));
  });
});
