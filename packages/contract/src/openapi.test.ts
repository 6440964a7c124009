import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi';

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument();

  it('gives every operation an operationId, a summary and a tag', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, Record<string, unknown>>)) {
        expect(op.operationId, `${method} ${path}`).toBeTruthy();
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(op.tags, `${method} ${path}`).toHaveLength(1);
      }
    }
  });
});
