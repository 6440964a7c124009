import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import { contract } from '../contract';
import { ERROR_CODES, type ErrorCode } from '../errors';
import type { RouteMetadata } from '../route-metadata';
import { ERROR_RESPONSE_CODES } from '../schemas/common';
import { eventWebhooks, registerEventComponents } from './event-webhooks';
import { exampleOf } from './examples';
import { hoistComponents, isJsonObject, type JsonObject, toOpenApi31 } from './json-schema';
import { OPENAPI_TAGS } from './tags';

type OpenApiDocument = ReturnType<typeof generateOpenApi>;
type MapperOptions = NonNullable<Parameters<typeof generateOpenApi>[2]>;
type Operation = Parameters<NonNullable<MapperOptions['operationMapper']>>[0];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Descriptions of the success statuses the API answers with. */
const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
};

/** Builds `operationId`s from the route's place in the contract: `messages.send` → `messagesSend`. */
function operationIds(router: AppRouter, prefix: string[] = [], out = new Map<AppRoute, string>()) {
  for (const [key, value] of Object.entries(router)) {
    if (isAppRoute(value)) {
      const parts = [...prefix, key];
      out.set(
        value,
        parts.map((p, i) => (i === 0 ? p : `${p.charAt(0).toUpperCase()}${p.slice(1)}`)).join(''),
      );
    } else {
      operationIds(value, [...prefix, key], out);
    }
  }
  return out;
}

function isOtherResponse(value: unknown): value is { contentType: string; body: unknown } {
  return typeof value === 'object' && value !== null && 'contentType' in value && 'body' in value;
}

/** True when the route's body may be omitted (an optional zod schema). */
function isOptionalBody(route: AppRoute): boolean {
  if (!('body' in route)) return true;
  const body: unknown = route.body;
  return (
    typeof body === 'object' &&
    body !== null &&
    'isOptional' in body &&
    typeof body.isOptional === 'function' &&
    body.isOptional() === true
  );
}

/** Turns one ts-rest route into its OpenAPI operation: ids, tags, security, response texts. */
function mapOperation(
  operation: Operation,
  route: AppRoute,
  ids: Map<AppRoute, string>,
  errorCodes: Map<object, ErrorCode[]>,
): Operation {
  const meta = (route.metadata ?? {}) as Partial<RouteMetadata>;
  const responses = { ...(operation.responses as Record<string, JsonObject>) };
  for (const [status, schema] of Object.entries(route.responses)) {
    const current: JsonObject = { ...responses[status] };
    const codes =
      typeof schema === 'object' && schema ? ERROR_RESPONSE_CODES.get(schema) : undefined;
    if (codes) {
      current.description = codes
        .map((code) => `\`${code}\`: ${ERROR_CODES[code].description}`)
        .join(' ');
      errorCodes.set(current, codes);
    } else if (isOtherResponse(schema)) {
      current.description = SUCCESS_DESCRIPTIONS[status] ?? 'Success';
      current.content = {
        [schema.contentType]:
          schema.contentType === 'text/event-stream'
            ? {
                schema: {
                  type: 'string',
                  description:
                    'A stream of Server-Sent Events frames; the `data:` line of each frame is one `Event` (`x-item-schema`).',
                },
                // OpenAPI 3.1 has no schema for the items of a stream (3.2's `itemSchema`).
                'x-item-schema': { $ref: '#/components/schemas/Event' },
              }
            : { schema: { type: 'string', format: 'binary' } },
      };
    } else if (current.description === status) {
      current.description =
        SUCCESS_DESCRIPTIONS[status] ?? (Number(status) < 300 ? 'Success' : 'Error');
    }
    responses[status] = current;
  }
  const { requestBody, ...rest } = operation;
  return {
    ...rest,
    operationId: ids.get(route) ?? route.path,
    tags: [meta.tag ?? 'Default'],
    ...(meta.deprecated ? { deprecated: true } : {}),
    ...(meta.auth === false ? { security: [] } : {}),
    ...(meta.auth === 'admin' ? { security: [{ adminToken: [] }] } : {}),
    ...(meta.auth === 'metrics' ? { security: [{ adminToken: [] }, { metricsToken: [] }] } : {}),
    ...(requestBody && !('$ref' in requestBody)
      ? {
          // ts-rest labels every body "Body"; the schema carries the real description.
          requestBody: { content: requestBody.content, required: !isOptionalBody(route) },
        }
      : {}),
    responses,
  };
}

/** Every operation of the document with its path and method. */
function* operationsOf(document: OpenApiDocument) {
  for (const [path, item] of Object.entries(document.paths as Record<string, JsonObject>)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isJsonObject(operation)) yield { path, method, operation };
    }
  }
}

/** Media type objects (`content` entries) of an operation's body and responses. */
function* mediaOf(operation: JsonObject) {
  const body = operation.requestBody;
  if (isJsonObject(body) && isJsonObject(body.content)) {
    for (const media of Object.values(body.content)) if (isJsonObject(media)) yield { media };
  }
  if (isJsonObject(operation.responses)) {
    for (const response of Object.values(operation.responses)) {
      if (!isJsonObject(response) || !isJsonObject(response.content)) continue;
      for (const media of Object.values(response.content)) {
        if (isJsonObject(media)) yield { media, response };
      }
    }
  }
}

/** Applies a schema rewrite to every schema of every operation (parameters, bodies, responses). */
function rewriteOperationSchemas(operation: JsonObject, rewrite: (s: JsonObject) => JsonObject) {
  if (Array.isArray(operation.parameters)) {
    for (const parameter of operation.parameters) {
      if (isJsonObject(parameter) && isJsonObject(parameter.schema)) {
        parameter.schema = rewrite(parameter.schema);
      }
    }
  }
  for (const { media } of mediaOf(operation)) {
    if (isJsonObject(media.schema)) media.schema = rewrite(media.schema);
  }
}

/** Adds examples to bodies and responses: one per error code, or one assembled from the schema. */
function addExamples(
  operation: JsonObject,
  components: JsonObject,
  errorCodes: Map<object, ErrorCode[]>,
) {
  for (const { media, response } of mediaOf(operation)) {
    if (!isJsonObject(media.schema) || 'example' in media || 'examples' in media) continue;
    const example = exampleOf(media.schema, components);
    const codes = response ? errorCodes.get(response) : undefined;
    if (codes && isJsonObject(example)) {
      media.examples = Object.fromEntries(
        codes.map((code) => [
          code,
          {
            summary: code,
            value: { ...example, error: { code, message: ERROR_CODES[code].description } },
          },
        ]),
      );
    } else if (example !== undefined) {
      media.example = example;
    }
  }
}

/** The global tag list: every tag the operations use, described, in documentation order. */
function usedTags(document: OpenApiDocument) {
  const used = new Set<string>();
  for (const { path, method, operation } of operationsOf(document)) {
    for (const tag of Array.isArray(operation.tags) ? operation.tags : []) {
      if (!OPENAPI_TAGS.some((known) => known.name === tag)) {
        throw new Error(
          `${method.toUpperCase()} ${path}: tag "${String(tag)}" is not in OPENAPI_TAGS`,
        );
      }
      used.add(String(tag));
    }
  }
  return OPENAPI_TAGS.filter((tag) => used.has(tag.name)).map((tag) => ({ ...tag }));
}

/** Sorts an object's keys so the document's bytes never depend on module evaluation order. */
function sortedByKey(object: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/** Generates the OpenAPI 3 document of the whole contract. */
export function buildOpenApiDocument(): OpenApiDocument {
  const ids = operationIds(contract);
  const errorCodes = new Map<object, ErrorCode[]>();
  const document = generateOpenApi(
    contract,
    {
      info: {
        title: 'Switchboard API',
        version: '1.0.0',
        description:
          'A self-hostable messaging gateway: one REST API for iMessage, SMS/MMS and WhatsApp. Every response but `/health`, the event stream and attachment downloads uses the envelope `{success, data | error, requestId}`; the error codes are listed in docs/errors.md.',
        contact: { name: 'Switchboard maintainers' },
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      servers: [{ url: 'http://127.0.0.1:3000', description: 'A local Switchboard server' }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'A customer API key: `Authorization: Bearer sk_…`.',
          },
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The operator token `SWITCHBOARD_ADMIN_TOKEN`.',
          },
          metricsToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The metrics token `METRICS_TOKEN`, for `GET /metrics` only (the operator token opens it too).',
          },
        },
      },
      security: [{ apiKey: [] }],
    },
    {
      setOperationId: false,
      operationMapper: (operation, route) => mapOperation(operation, route, ids, errorCodes),
    },
  );

  const components = (document.components ?? {}) as JsonObject;
  const schemas: JsonObject = isJsonObject(components.schemas) ? { ...components.schemas } : {};
  for (const { operation } of operationsOf(document)) {
    rewriteOperationSchemas(operation, (schema) => toOpenApi31(hoistComponents(schema, schemas)));
  }
  registerEventComponents(schemas);
  for (const [name, schema] of Object.entries(schemas)) {
    if (isJsonObject(schema)) schemas[name] = toOpenApi31(schema);
  }
  for (const { operation } of operationsOf(document)) addExamples(operation, schemas, errorCodes);

  return {
    openapi: '3.1.0',
    info: document.info,
    servers: document.servers,
    security: document.security,
    tags: usedTags(document),
    paths: document.paths,
    webhooks: eventWebhooks(),
    components: { ...components, schemas: sortedByKey(schemas) },
  } as OpenApiDocument;
}
