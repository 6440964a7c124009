import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../openapi/document';

type Json = Record<string, unknown>;

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Json>>;
};

describe('the attachment download operation', () => {
  const op = document.paths['/v1/attachments/{id}']?.get as Json;

  it('needs no API key and answers raw bytes of any media type', () => {
    expect(op.operationId).toBe('attachmentsDownload');
    expect(op.tags).toEqual(['Attachments']);
    expect(op.security).toEqual([]);
    const responses = op.responses as Record<string, Json>;
    expect(responses['200']?.content).toEqual({
      '*/*': { schema: { type: 'string', format: 'binary' } },
    });
  });

  it('documents the signature failures and no key-related errors', () => {
    const responses = op.responses as Record<string, Json>;
    expect(Object.keys(responses).sort()).toEqual(['200', '400', '403', '404', '500']);
    expect(responses['403']?.description).toContain('FORBIDDEN');
    expect(responses['400']?.description).toContain('VALIDATION_ERROR');
    expect(responses['404']?.description).toContain('NOT_FOUND');
  });

  it('takes the id in the path and expires and signature in the query', () => {
    const parameters = op.parameters as Json[];
    expect(parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['id', 'path', true],
      ['expires', 'query', true],
      ['signature', 'query', true],
    ]);
  });
});
