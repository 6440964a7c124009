import { contract } from '@switchboard/contract';
import type { AppRouter } from '@ts-rest/core';
import { initServer, type RouterImplementation } from '@ts-rest/fastify';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { ApiReference, DOCS_PATH } from '../http/api-reference';
import { createAuthenticationHook } from '../http/authentication';
import { CompressedAssets } from '../http/compressed-assets';
import { registerConsole } from '../http/console-assets';
import { createRateLimitHook } from '../http/rate-limit';
import { toValidationDomainError } from '../http/validation-errors';
import type { RateLimitStore } from '../rate-limit/rate-limit-store';
import type { Services } from '../wiring/services';
import { adminRoutes } from './admin';
import { attachmentsRoutes } from './attachments';
import { callbacksRoutes } from './callbacks';
import { capabilitiesRoutes } from './capabilities';
import { chatsRoutes } from './chats';
import { contactErasuresRoutes } from './contact-erasures';
import { eventsRoutes } from './events';
import { healthRoutes } from './health';
import { messagesRoutes } from './messages';
import { notImplementedRoutes } from './not-implemented';
import { numbersRoutes } from './numbers';
import { optOutsRoutes } from './opt-outs';
import { registerProviderIngress } from './provider-ingress';
import { sandboxRoutes } from './sandbox';
import { webhooksRoutes } from './webhooks';
import { whatsappRoutes } from './whatsapp';

/** A resource of the contract (`messages`, `numbers`…). */
type Resource = keyof typeof contract;

/** Registers one resource's router on a Fastify scope. */
type ScopeRegistration = (scope: FastifyInstance) => void;

const server = initServer();

/** Pairs a contract router with its implementation, type-checked against each other. */
function routerRegistration<T extends AppRouter>(
  router: T,
  implementation: RouterImplementation<T>,
): ScopeRegistration {
  return (scope) =>
    server.registerRouter(router, implementation, scope, {
      logInitialization: false,
      responseValidation: false,
      requestValidationErrorHandler: (error, _request, reply) => {
        reply.send(toValidationDomainError(error));
      },
    });
}

/** Dependencies of {@link registerContractRoutes}. */
export interface ContractRoutesOptions {
  /** The server configuration. */
  config: Config;
  /** The domain services. */
  services: Services;
  /** Rate-limit counters. */
  rateLimitStore: RateLimitStore;
  /** The time source. */
  clock: Clock;
}

/**
 * Registers every route of the contract inside a child scope that authenticates and rate-limits
 * them. Each resource gets its own scope because ts-rest sets an error handler per registration;
 * that handler forwards everything but validation failures to the root envelope handler.
 * Resources without an implementation yet answer 501 `NOT_IMPLEMENTED`; the operator API is only
 * registered when `SWITCHBOARD_ADMIN_TOKEN` is set, so without it `/admin` answers 404.
 */
export async function registerContractRoutes(
  app: FastifyInstance,
  options: ContractRoutesOptions,
): Promise<void> {
  const { config, services } = options;
  const reference = new ApiReference(config.publicBaseUrl);
  app.addHook('onClose', () => reference.close());
  // The reference page's own script and styles: static assets, not API operations, served
  // compressed and cacheable (the script is ~5 MB).
  const assets = new CompressedAssets((url) => reference.page(url));
  app.get(`${DOCS_PATH}/*`, { logLevel: 'warn' }, async (request, reply) =>
    assets.send(request.url.split('?')[0] ?? request.url, request, reply),
  );
  registerConsole(app);
  const implemented: Partial<Record<Resource, ScopeRegistration>> = {
    health: routerRegistration(
      contract.health,
      healthRoutes(services, reference, {
        open: config.metricsOpen,
        tokens: [config.metricsToken, config.adminToken].filter(
          (token): token is string => token !== undefined,
        ),
      }),
    ),
    numbers: routerRegistration(contract.numbers, numbersRoutes(services)),
    optOuts: routerRegistration(contract.optOuts, optOutsRoutes(services)),
    contactErasures: routerRegistration(contract.contactErasures, contactErasuresRoutes(services)),
    admin: routerRegistration(contract.admin, adminRoutes(services, config.publicBaseUrl)),
    messages: routerRegistration(contract.messages, messagesRoutes(services)),
    capabilities: routerRegistration(contract.capabilities, capabilitiesRoutes(services)),
    webhooks: routerRegistration(contract.webhooks, webhooksRoutes(services)),
    callbacks: routerRegistration(contract.callbacks, callbacksRoutes(services)),
    events: routerRegistration(contract.events, eventsRoutes(services)),
    chats: routerRegistration(contract.chats, chatsRoutes(services)),
    whatsapp: routerRegistration(contract.whatsapp, whatsappRoutes(services)),
    sandbox: routerRegistration(contract.sandbox, sandboxRoutes(services)),
    attachments: routerRegistration(contract.attachments, attachmentsRoutes(services)),
  };

  await registerProviderIngress(app, {
    ingress: services.ingress,
    publicBaseUrl: config.publicBaseUrl,
    bodyLimit: config.ingressBodyLimitBytes,
  });
  await app.register(async (api) => {
    api.addHook(
      'onRequest',
      createAuthenticationHook({ apiKeys: services.apiKeys, adminToken: config.adminToken }),
    );
    api.addHook(
      'onRequest',
      await createRateLimitHook(api, {
        perMinute: config.rateLimitPerMinute,
        store: options.rateLimitStore,
        clock: options.clock,
      }),
    );

    for (const resource of Object.keys(contract) as Resource[]) {
      if (resource === 'admin' && !config.adminToken) continue;
      // The upstream ingress lives outside this scope: no API key, raw bodies.
      if (resource === 'providers') continue;
      const router: AppRouter = contract[resource];
      const register =
        implemented[resource] ?? routerRegistration(router, notImplementedRoutes(router));
      await api.register(async (scope) => register(scope));
    }
  });
}
