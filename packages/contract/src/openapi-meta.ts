import { extendApi } from '@anatine/zod-openapi';
import type { z } from 'zod';

/** OpenAPI annotations that can be attached to a schema. */
export interface SchemaDocs {
  description?: string;
  example?: unknown;
  format?: string;
  deprecated?: boolean;
}

/**
 * Attaches OpenAPI documentation (description, example, format) to a schema and returns it.
 * @example const Id = doc(z.string(), { description: 'Message id', example: 'msg_…' });
 */
export function doc<T extends z.ZodTypeAny>(schema: T, docs: SchemaDocs): T {
  return extendApi(schema, docs as Parameters<typeof extendApi>[1]);
}

/** Component names registered with {@link component}, in registration order. */
export const COMPONENT_NAMES = new Set<string>();

/**
 * Marks a schema as a reusable OpenAPI component: the generator hoists it to
 * `components.schemas[name]` and references it with `$ref` wherever it appears.
 */
export function component<T extends z.ZodTypeAny>(
  name: string,
  schema: T,
  docs: SchemaDocs = {},
): T {
  COMPONENT_NAMES.add(name);
  return extendApi(schema, { ...docs, title: name } as Parameters<typeof extendApi>[1]);
}
