import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../openapi/document';
import { messagesContract } from './messages';

type Json = Record<string, unknown>;

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Json>>;
};

/** The OpenAPI operation at a method and path. */
function operation(method: string, path: string): Json {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return found;
}

/** The `$ref` (or inline schema) of a JSON response's `data`. */
function dataSchema(op: Json, status: string): unknown {
  const responses = op.responses as Record<string, Json>;
  const content = responses[status]?.content as Record<string, { schema: Json }> | undefined;
  const envelope = content?.['application/json']?.schema as { properties?: Json } | undefined;
  return envelope?.properties?.data;
}

/** The error codes documented under each status of an operation. */
function documentedCodes(op: Json): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
    if (Number(status) < 400) continue;
    out[status] = [...String(response.description).matchAll(/`([A-Z_]+)`/g)].map((m) => m[1] ?? '');
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('the Messages operations', () => {
  const table = [
    ['send', 'post', '/v1/messages', 'messagesSend', true],
    ['list', 'get', '/v1/messages', 'messagesList', false],
    ['listScheduled', 'get', '/v1/messages/scheduled', 'messagesListScheduled', false],
    ['get', 'get', '/v1/messages/{id}', 'messagesGet', false],
    ['routing', 'get', '/v1/messages/{id}/routing', 'messagesRouting', false],
    ['listEvents', 'get', '/v1/messages/{id}/events', 'messagesListEvents', false],
    ['retry', 'post', '/v1/messages/{id}/retry', 'messagesRetry', false],
    ['unsend', 'post', '/v1/messages/{id}/unsend', 'messagesUnsend', false],
    ['edit', 'put', '/v1/messages/{id}', 'messagesEdit', true],
    ['react', 'post', '/v1/messages/{id}/reactions', 'messagesReact', true],
    ['delete', 'delete', '/v1/messages/{id}', 'messagesDelete', false],
    ['cancelSchedule', 'delete', '/v1/messages/{id}/schedule', 'messagesCancelSchedule', false],
  ] as const;

  it('has exactly the twelve route keys', () => {
    expect(Object.keys(messagesContract).sort()).toEqual(table.map(([key]) => key).sort());
  });

  it.each(table)('%s is %s %s (%s), tagged and authenticated', (_key, method, path, id, body) => {
    const op = operation(method, path);
    expect(op.operationId).toBe(id);
    expect(op.tags).toEqual(['Messages']);
    expect(op.summary).toBeTruthy();
    expect(op.description).toBeTruthy();
    expect(op.security).toBeUndefined();
    expect(documentedCodes(op)).toMatchObject({
      '401': ['UNAUTHORIZED'],
      '403': expect.arrayContaining(['FORBIDDEN']),
      '429': ['RATE_LIMIT_EXCEEDED'],
      '500': ['INTERNAL_ERROR'],
    });
    if (body) expect(op.requestBody).toMatchObject({ required: true });
    else expect(op.requestBody).toBeUndefined();
  });

  it('documents every error the send can answer', () => {
    const op = operation('post', '/v1/messages');
    expect(dataSchema(op, '202')).toEqual(ref('SendMessageResult'));
    expect(dataSchema(op, '200')).toEqual(ref('Message'));
    expect(op.requestBody).toMatchObject({
      content: { 'application/json': { schema: ref('SendMessageRequest') } },
    });
    const codes = documentedCodes(op);
    expect(codes['400']?.sort()).toEqual(
      [
        'VALIDATION_ERROR',
        'INVALID_REQUEST',
        'INVALID_RECIPIENT',
        'INVALID_PHONE_NUMBER',
        'INVALID_SCHEDULED_AT',
        'SCHEDULED_IN_PAST',
        'SCHEDULED_TOO_FAR',
        'NO_DEFAULT_ADDRESS',
        'NO_CHANNEL_AVAILABLE',
        'FROM_INSTANCE_CANNOT_REACH',
        'GROUP_SMS_UNSUPPORTED',
      ].sort(),
    );
    expect(codes['403']?.sort()).toEqual([
      'ADDRESS_NOT_AUTHORIZED',
      'FORBIDDEN',
      'RECIPIENT_OPTED_OUT',
    ]);
    expect(codes['404']?.sort()).toEqual(['CONVERSATION_NOT_FOUND', 'REPLY_NOT_FOUND']);
    expect(codes['409']?.sort()).toEqual(['ALREADY_DELETED', 'CONVERSATION_NOT_READY']);
  });

  it('answers the spec codes of the per-message operations', () => {
    expect(documentedCodes(operation('post', '/v1/messages/{id}/retry'))).toMatchObject({
      '400': ['INVALID_STATUS'],
      '404': ['NOT_FOUND'],
    });
    expect(documentedCodes(operation('post', '/v1/messages/{id}/unsend'))).toMatchObject({
      '400': expect.arrayContaining(['CHANNEL_NOT_SUPPORTED', 'MISSING_EXTERNAL_ID']),
      '409': ['ALREADY_UNSENT'],
    });
    expect(documentedCodes(operation('put', '/v1/messages/{id}'))).toMatchObject({
      '502': ['EDIT_FAILED'],
      '504': ['PROVIDER_TIMEOUT'],
    });
    expect(documentedCodes(operation('post', '/v1/messages/{id}/reactions'))).toMatchObject({
      '400': expect.arrayContaining(['CHANNEL_NOT_SUPPORTED']),
    });
    expect(documentedCodes(operation('delete', '/v1/messages/{id}'))).toMatchObject({
      '409': ['ALREADY_DELETED'],
    });
    expect(documentedCodes(operation('delete', '/v1/messages/{id}/schedule'))).toMatchObject({
      '400': ['NOT_SCHEDULED'],
    });
  });

  it('answers the decided shapes', () => {
    expect(dataSchema(operation('get', '/v1/messages'), '200')).toEqual(ref('MessageList'));
    expect(dataSchema(operation('get', '/v1/messages/scheduled'), '200')).toEqual(
      ref('MessageList'),
    );
    expect(dataSchema(operation('get', '/v1/messages/{id}'), '200')).toEqual(ref('Message'));
    expect(dataSchema(operation('get', '/v1/messages/{id}/events'), '200')).toEqual(
      ref('MessageEventList'),
    );
    expect(dataSchema(operation('post', '/v1/messages/{id}/retry'), '202')).toEqual(
      ref('RetryResult'),
    );
    expect(dataSchema(operation('post', '/v1/messages/{id}/unsend'), '200')).toEqual(
      ref('Message'),
    );
    expect(dataSchema(operation('put', '/v1/messages/{id}'), '200')).toEqual(ref('Message'));
    expect(dataSchema(operation('post', '/v1/messages/{id}/reactions'), '200')).toEqual(
      ref('ReactionResult'),
    );
    expect(dataSchema(operation('delete', '/v1/messages/{id}'), '200')).toEqual(
      ref('DeleteResult'),
    );
    expect(dataSchema(operation('delete', '/v1/messages/{id}/schedule'), '200')).toEqual(
      ref('Message'),
    );
  });

  it('documents the list filters as query parameters', () => {
    const names = (operation('get', '/v1/messages').parameters as Json[]).map((p) => p.name);
    expect(names).toEqual([
      'limit',
      'cursor',
      'status',
      'to',
      'from',
      'channel',
      'createdAfter',
      'createdBefore',
    ]);
  });
});
