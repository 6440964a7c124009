import { isJsonObject, type JsonObject, refName } from './json-schema';

/** Nesting depth past which example synthesis gives up (guards against recursive schemas). */
const MAX_DEPTH = 12;

/**
 * Builds an example value for a schema from the examples its parts carry: the schema's own
 * `example`, the example of a referenced component, the first enum value or the default, and for
 * objects and arrays an assembly of their members' examples. Returns undefined when a required
 * part has no example, so an operation never shows a half-invented example.
 */
export function exampleOf(schema: JsonObject, components: JsonObject, depth = 0): unknown {
  if (depth > MAX_DEPTH) return undefined;
  if ('example' in schema) return schema.example;
  const name = refName(schema);
  if (name !== undefined) {
    const target = components[name];
    return isJsonObject(target) ? exampleOf(target, components, depth + 1) : undefined;
  }
  const variants = schema.allOf ?? schema.oneOf ?? schema.anyOf;
  if (Array.isArray(variants) && isJsonObject(variants[0])) {
    // For allOf this is only right with one member, which is how nullable refs are written.
    if (schema.allOf === undefined || variants.length === 1) {
      return exampleOf(variants[0], components, depth + 1);
    }
    return undefined;
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  if (schema.type === 'array' && isJsonObject(schema.items)) {
    const item = exampleOf(schema.items, components, depth + 1);
    return item === undefined ? fallback(schema) : [item];
  }
  if (schema.type === 'object' && isJsonObject(schema.properties)) {
    return objectExample(schema, schema.properties, components, depth);
  }
  return fallback(schema);
}

function objectExample(
  schema: JsonObject,
  properties: JsonObject,
  components: JsonObject,
  depth: number,
): unknown {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: JsonObject = {};
  for (const [key, sub] of Object.entries(properties)) {
    const value = isJsonObject(sub) ? exampleOf(sub, components, depth + 1) : undefined;
    if (value !== undefined) out[key] = value;
    else if (required.has(key)) return fallback(schema);
  }
  return out;
}

/** What is left when nothing carries an example: null for a nullable schema, else nothing. */
function fallback(schema: JsonObject): unknown {
  return schema.nullable === true ? null : undefined;
}
