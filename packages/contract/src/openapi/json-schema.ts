/** A JSON object of the OpenAPI document (schemas, operations, media types…). */
export type JsonObject = { [key: string]: unknown };

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SINGLE_SUBSCHEMA_KEYS = ['items', 'not', 'additionalProperties'] as const;
const LIST_SUBSCHEMA_KEYS = ['allOf', 'anyOf', 'oneOf'] as const;

/** Returns a copy of `schema` whose direct sub-schemas went through `map`. */
function mapSubSchemas(schema: JsonObject, map: (sub: JsonObject) => JsonObject): JsonObject {
  const out: JsonObject = { ...schema };
  for (const key of SINGLE_SUBSCHEMA_KEYS) {
    const sub = out[key];
    if (isJsonObject(sub)) out[key] = map(sub);
  }
  for (const key of LIST_SUBSCHEMA_KEYS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((sub) => (isJsonObject(sub) ? map(sub) : sub));
  }
  const properties = out.properties;
  if (isJsonObject(properties)) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, sub]) => [name, isJsonObject(sub) ? map(sub) : sub]),
    );
  }
  return out;
}

/**
 * Replaces every schema titled by `component()` with a `$ref` to `components.schemas[title]`,
 * registering it there on first sight. ts-rest only does this for responses and for bodies that
 * are components themselves; this pass covers nested body schemas and parameters too.
 * @throws when one component name produces two different schemas (a request/response mix-up).
 */
export function hoistComponents(schema: JsonObject, registry: JsonObject): JsonObject {
  const inner = mapSubSchemas(schema, (sub) => hoistComponents(sub, registry));
  const title = inner.title;
  if (typeof title !== 'string') return inner;
  const { nullable, ...definition } = inner;
  const existing = registry[title];
  if (existing === undefined) {
    registry[title] = definition;
  } else if (JSON.stringify(existing) !== JSON.stringify(definition)) {
    throw new Error(
      `Component "${title}" is generated with two different schemas; give the variants different names.`,
    );
  }
  const ref = { $ref: `#/components/schemas/${title}` };
  return nullable === true ? { nullable: true, allOf: [ref] } : ref;
}

/** The schema keywords that describe a value rather than constrain it. */
const ANNOTATION_KEYS = new Set(['title', 'description', 'example', 'default', 'deprecated']);

/**
 * Rewrites the OpenAPI 3.0 dialect the zod converter emits into OpenAPI 3.1 (JSON Schema 2020-12).
 * 3.0's `nullable` cannot make a `$ref` or an enum nullable in a way validators agree on, so:
 * `nullable` on a typed schema becomes `type: [type, 'null']` (with `null` added to an `enum`),
 * and on a reference or composition becomes `anyOf: [schema, {type: 'null'}]`.
 */
export function toOpenApi31(schema: JsonObject): JsonObject {
  let out = mapSubSchemas(schema, toOpenApi31);
  // A zod union accepts a value when any member does: that is `anyOf`, not the converter's
  // `oneOf` (which fails when members overlap). Discriminated unions stay `oneOf`.
  if (Array.isArray(out.oneOf) && out.discriminator === undefined) {
    const { oneOf, ...rest } = out;
    out = { ...rest, anyOf: oneOf };
  }
  // `.positive()`/`.lt()` come out with both bounds set to the same value; the exclusive one wins.
  if (typeof out.exclusiveMinimum === 'number' && out.minimum === out.exclusiveMinimum) {
    delete out.minimum;
  }
  if (typeof out.exclusiveMaximum === 'number' && out.maximum === out.exclusiveMaximum) {
    delete out.maximum;
  }
  if (out.format === 'null') {
    // `z.null()` comes out as `{type: 'string', format: 'null', nullable: true}`.
    const { format: _format, nullable: _nullable, type: _type, ...rest } = out;
    return { ...rest, type: 'null' };
  }
  if (out.nullable !== true) {
    delete out.nullable;
    return out;
  }
  const { nullable: _nullable, ...rest } = out;
  if (typeof rest.type === 'string') {
    rest.type = [rest.type, 'null'];
    if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null];
    return rest;
  }
  const constraints = Object.keys(rest).filter((key) => !ANNOTATION_KEYS.has(key));
  // An untyped schema without constraints (`z.unknown()`) already accepts null.
  if (constraints.length === 0) return rest;
  const annotations: JsonObject = {};
  const core: JsonObject = {};
  for (const [key, value] of Object.entries(rest)) {
    if (ANNOTATION_KEYS.has(key)) annotations[key] = value;
    else core[key] = value;
  }
  const single = Array.isArray(core.allOf) && core.allOf.length === 1 && constraints.length === 1;
  return {
    ...annotations,
    anyOf: [single ? (core.allOf as unknown[])[0] : core, { type: 'null' }],
  };
}

/** The component name a `$ref` points to, or undefined for any other schema. */
export function refName(schema: JsonObject): string | undefined {
  const ref = schema.$ref;
  return typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
}
