import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import { contract } from './contract';
import { ERROR_CODES } from './errors';
import type { RouteMetadata } from './route-metadata';
import { ERROR_RESPONSE_CODES } from './schemas/common';

type OpenApiDocument = ReturnType<typeof generateOpenApi>;
type MapperOptions = NonNullable<Parameters<typeof generateOpenApi>[2]>;
type Operation = Parameters<NonNullable<MapperOptions['operationMapper']>>[0];

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

/** Generates the OpenAPI 3 document of the whole contract. */
export function buildOpenApiDocument(): OpenApiDocument {
  const ids = operationIds(contract);
  const doc = generateOpenApi(
    contract,
    {
      info: {
        title: 'Switchboard API',
        version: '1.0.0',
        description:
          'A self-hostable messaging gateway: one REST API for iMessage, SMS/MMS and WhatsApp. Every response but `/health`, the event stream and attachment downloads uses the envelope `{success, data | error, requestId}`.',
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
        },
      },
      security: [{ apiKey: [] }],
    },
    {
      setOperationId: false,
      operationMapper: (operation: Operation, route: AppRoute): Operation => {
        const meta = (route.metadata ?? {}) as Partial<RouteMetadata>;
        const responses = { ...(operation.responses as Record<string, Record<string, unknown>>) };
        for (const [status, schema] of Object.entries(route.responses)) {
          const current = responses[status] ?? {};
          const codes =
            typeof schema === 'object' && schema ? ERROR_RESPONSE_CODES.get(schema) : undefined;
          if (codes) {
            current.description = codes
              .map((code) => `\`${code}\`: ${ERROR_CODES[code].description}`)
              .join(' ');
          } else if (isOtherResponse(schema)) {
            current.description = 'Success';
            current.content = {
              [schema.contentType]: {
                schema:
                  schema.contentType === 'text/event-stream'
                    ? { type: 'string', description: 'A stream of Server-Sent Events frames.' }
                    : { type: 'string', format: 'binary' },
              },
            };
          } else if (current.description === status) {
            current.description = Number(status) < 300 ? 'Success' : 'Error';
          }
          responses[status] = current;
        }
        return {
          ...operation,
          operationId: ids.get(route) ?? route.path,
          tags: [meta.tag ?? 'Default'],
          ...(meta.deprecated ? { deprecated: true } : {}),
          ...(meta.auth === false ? { security: [] } : {}),
          ...(meta.auth === 'admin' ? { security: [{ adminToken: [] }] } : {}),
          responses,
        };
      },
    },
  );
  return doc;
}
