import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from './event-types';
import { buildOpenApiDocument } from './openapi';

describe('events in the OpenAPI document', () => {
  const doc = buildOpenApiDocument() as unknown as {
    webhooks: Record<string, { post: { requestBody: { content: Record<string, unknown> } } }>;
    components: { schemas: Record<string, unknown> };
  };

  it('documents one signed webhook POST per webhook event type', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const [type, item] of Object.entries(doc.webhooks)) {
      const media = item.post.requestBody.content['application/json'] as {
        schema: { $ref: string };
      };
      const name = media.schema.$ref.replace('#/components/schemas/', '');
      expect(doc.components.schemas[name], type).toBeDefined();
    }
  });

  it('holds the event union, with its members mapped by type', () => {
    const event = doc.components.schemas.Event as {
      discriminator: { mapping: Record<string, string> };
    };
    expect(Object.keys(event.discriminator.mapping)).toContain('whatsapp.status');
    expect(event.discriminator.mapping['message.inbound']).toBe(
      '#/components/schemas/MessageInboundEvent',
    );
  });
});
