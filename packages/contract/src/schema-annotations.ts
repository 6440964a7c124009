import type { z } from 'zod';

/** OpenAPI fields (a Schema Object's) attached to a schema for the generator. */
export type OpenApiAnnotations = Readonly<Record<string, unknown>>;

/**
 * Attaches OpenAPI fields to a schema, in the `metaOpenApi` property that @anatine/zod-openapi's
 * generator reads (what its own `extendApi` writes). Setting the property here keeps that
 * generator, and its dependencies, out of the contract's run time: it is used at build time only.
 * @example const Kind = extendApi(z.enum(['a', 'b']).nullable(), { enum: ['a', 'b', null] });
 */
export function extendApi<T extends z.ZodTypeAny>(schema: T, annotations: OpenApiAnnotations): T {
  const annotated = schema as T & { metaOpenApi?: OpenApiAnnotations };
  annotated.metaOpenApi = { ...annotated.metaOpenApi, ...annotations };
  return schema;
}

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
  return extendApi(schema, { ...docs });
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
  return extendApi(schema, { ...docs, title: name });
}
