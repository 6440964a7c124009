import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../openapi/document';

type Json = Record<string, unknown>;

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Json>>;
};

describe('the numbers operation', () => {
  it('lists sender numbers', () => {
    const op = document.paths['/v1/numbers']?.get as Json;
    expect(op.operationId).toBe('numbersList');
    expect(op.tags).toEqual(['Numbers']);
    const content = (op.responses as Record<string, Json>)['200']?.content as Json;
    expect(content).toMatchObject({
      'application/json': {
        schema: {
          properties: {
            data: { type: 'array', items: { $ref: '#/components/schemas/SenderNumber' } },
          },
        },
      },
    });
  });
});
