import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../openapi/document';

type Json = Record<string, unknown>;

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Json>>;
};

describe('the capability operation', () => {
  it('checks a phone number', () => {
    const op = document.paths['/v1/capabilities/{phoneNumber}']?.get as Json;
    expect(op.operationId).toBe('capabilitiesGet');
    expect(op.tags).toEqual(['Capabilities']);
    const responses = op.responses as Record<string, Json>;
    expect(responses['400']?.description).toContain('INVALID_PHONE_NUMBER');
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '401', '403', '429']));
  });
});
