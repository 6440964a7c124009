import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../event-types';
import { buildOpenApiDocument } from './document';

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

  it('points the event stream at the event union, and leaves no event component unused', () => {
    const full = buildOpenApiDocument() as unknown as {
      paths: Record<
        string,
        { get: { responses: Record<string, { content: Record<string, Record<string, unknown>> }> } }
      >;
    };
    const media = full.paths['/v1/events']?.get.responses['200']?.content['text/event-stream'];
    expect(media?.['x-item-schema']).toEqual({ $ref: '#/components/schemas/Event' });
    const json = JSON.stringify(full);
    for (const name of Object.keys(doc.components.schemas).filter((key) => key.endsWith('Event'))) {
      expect(json, name).toContain(`"#/components/schemas/${name}"`);
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
