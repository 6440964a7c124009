import { INSTANCE_CONFIG_SCHEMAS, INSTANCE_SECRET_FIELDS } from '@switchboard/contract';
import type { z } from 'zod';

/** A provider adapter name. */
export type ProviderName = keyof typeof INSTANCE_CONFIG_SCHEMAS;

/** One setting of a provider's config, as a form field. */
export interface ConfigField {
  /** The config key. */
  name: string;
  /** The input it takes. */
  kind: 'text' | 'number' | 'boolean' | 'choice';
  /** The choices of a `choice`. */
  options: string[];
  /** Needed to create the instance. */
  required: boolean;
  /** Write-only: shown masked, sent only when typed. */
  secret: boolean;
  /** The schema's description of the setting. */
  description: string;
}

/** Unwraps optional, default and refinement layers down to the value's own schema. */
function innerOf(schema: z.ZodTypeAny): { schema: z.ZodTypeAny; required: boolean } {
  let current = schema;
  let required = true;
  for (;;) {
    const def = current._def as {
      typeName: string;
      innerType?: z.ZodTypeAny;
      schema?: z.ZodTypeAny;
    };
    if (def.typeName === 'ZodOptional' || def.typeName === 'ZodDefault') {
      required = false;
      current = def.innerType as z.ZodTypeAny;
    } else if (def.typeName === 'ZodEffects') {
      current = def.schema as z.ZodTypeAny;
    } else {
      return { schema: current, required };
    }
  }
}

/** The description the contract documents a setting with (its OpenAPI annotation). */
function descriptionOf(schema: z.ZodTypeAny): string | undefined {
  const annotations = (schema as { metaOpenApi?: { description?: unknown } }).metaOpenApi;
  return typeof annotations?.description === 'string' ? annotations.description : undefined;
}

/** The kind of input a setting's schema takes, or undefined when no single input fits. */
function kindOf(schema: z.ZodTypeAny): ConfigField['kind'] | undefined {
  switch ((schema._def as { typeName: string }).typeName) {
    case 'ZodString':
      return 'text';
    case 'ZodNumber':
      return 'number';
    case 'ZodBoolean':
      return 'boolean';
    case 'ZodEnum':
      return 'choice';
    default:
      return undefined;
  }
}

/**
 * The form fields of `provider`'s config, read from the contract's schema: strings, numbers,
 * booleans and choices (nested settings such as `pacing` are left to the API).
 */
export function configFields(provider: ProviderName): ConfigField[] {
  const object = innerOf(INSTANCE_CONFIG_SCHEMAS[provider]).schema as z.AnyZodObject;
  const secrets: readonly string[] = INSTANCE_SECRET_FIELDS[provider];
  return Object.entries(object.shape as Record<string, z.ZodTypeAny>).flatMap(([name, value]) => {
    const { schema, required } = innerOf(value);
    const kind = kindOf(schema);
    if (kind === undefined) return [];
    const options = kind === 'choice' ? [...(schema as z.ZodEnum<[string]>).options] : [];
    const description = descriptionOf(value) ?? descriptionOf(schema) ?? '';
    return [{ name, kind, options, required, secret: secrets.includes(name), description }];
  });
}

/**
 * The config to send from a form's values: empty values left out (a secret left blank keeps its
 * stored value on edit), numbers and booleans converted.
 */
export function configFromForm(
  fields: readonly ConfigField[],
  values: Record<string, string>,
): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name]?.trim() ?? '';
    if (raw === '') continue;
    if (field.kind === 'number') config[field.name] = Number(raw);
    else if (field.kind === 'boolean') config[field.name] = raw === 'true';
    else config[field.name] = raw;
  }
  return config;
}
