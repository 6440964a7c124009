import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import { type Clock, systemClock } from './clock';
import type { Config } from './config';
import { DomainError } from './domain/domain-error';
import { answerClientError } from './http/client-errors';
import { answerFrameworkError, registerErrorHandling } from './http/error-handling';
import { startChats } from './wiring/chat-services';
import { startDataLifecycle } from './wiring/data-lifecycle-services';
import './http/fastify-augmentation';
import type { ProviderRegistry } from '@switchboard/provider-kit';
import type { HostResolver } from './egress/safe-dispatcher';
import { correlationIdOf, requestIdOf } from './http/request-ids';
import { createLogger } from './logging/logger';
import { MemoryRateLimitStore } from './rate-limit/memory-rate-limit-store';
import type { RateLimitStore } from './rate-limit/rate-limit-store';
import type { RedisConnection, RedisLogger } from './redis/redis-connection';
import { RedisEventBus } from './redis/redis-event-bus';
import { RedisRateLimitStore } from './redis/redis-rate-limit-store';
import { registerContractRoutes } from './routes/register-routes';
import { openStore } from './store/open-store';
import type { Store } from './store/store';
import { startMessaging } from './wiring/messaging-services';
import { createServices } from './wiring/services';
import { Workers } from './workers';

/** Replacements for what {@link buildApp} would otherwise create, for tests and embedding. */
export interface BuildAppOverrides {
  /** The time source (default: the system clock). */
  clock?: Clock;
  /** An open store to use instead of opening `config.databaseUrl`; the caller closes it. */
  store?: Store;
  /** Where JSON log lines go (default: stdout). */
  logStream?: DestinationStream;
  /** Rate-limit counters (default: in memory). */
  rateLimitStore?: RateLimitStore;
  /** DNS resolver of the webhook dispatcher's connect-time check (tests script rebinding). */
  webhookResolver?: HostResolver;
  /** The provider adapters (default: the built-in ones); tests wrap them to observe calls. */
  providerRegistry?: ProviderRegistry;
  /**
   * False to build without starting the workers (recovery, webhook delivery, providers, the
   * scheduler); the server starts them with {@link startWorkers} once its port is bound.
   */
  startWorkers?: boolean;
  /** Called once the app closed and its store is closed (the server gives up its lock). */
  onClosed?: () => void;
}

/** How long the start waits for Redis before going on without it. */
const REDIS_CONNECT_WAIT_MS = 2_000;

/** The Fastify instance of the app: logging, request ids, limits and framework errors. */
function createFastify(config: Config, logger: FastifyBaseLogger): FastifyInstance {
  return Fastify({
    loggerInstance: logger,
    genReqId: requestIdOf,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    childLoggerFactory: (logger, bindings, options, raw) =>
      logger.child({ ...bindings, correlationId: correlationIdOf(raw) }, options),
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Refused in the envelope by {@link registerRequestHooks} instead of Fastify's bare 503 body.
    return503OnClosing: false,
  });
}

/** Opens (and migrates) the store `DATABASE_URL` names. */
function openAppStore(config: Config, logger: FastifyBaseLogger): Promise<Store> {
  return openStore(config.databaseUrl, {
    encryptionKey: config.encryptionKey,
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    poolSize: config.databasePoolSize,
    namedStatements: config.databaseNamedStatements,
    backgroundCheckpointMs: config.sqliteCheckpointIntervalMs,
    onIdleError: (error) => logger.warn({ err: error }, 'a database connection failed while idle'),
  });
}

/**
 * The hooks every request passes: its correlation id, its metric, the id headers, and the refusal
 * (and `connection: close`) once shutdown has begun.
 */
function registerRequestHooks(app: FastifyInstance): void {
  // Responses sent while closing ask the client to drop the connection, so an in-flight
  // request's keep-alive socket does not hold the shutdown open until it idles out.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    // Event streams never end on their own; shutdown would otherwise wait for them.
    app.services.eventStreams.closeAll();
  });
  app.addHook('onRequest', async (request, reply) => {
    request.correlationId = correlationIdOf(request.raw);
    if (closing) {
      reply.header('retry-after', 1);
      throw new DomainError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry shortly');
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    app.services.metrics.request(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-correlation-id', correlationIdOf(request.raw));
    if (closing) reply.header('connection', 'close');
  });
}

/**
 * Builds the whole Switchboard app, ready to serve, without listening: open and migrate the
 * store, wire the services, the envelope, authentication, rate limits and every contract route.
 * `app.close()` stops the workers and closes what the app opened.
 * @example const app = await buildApp(loadConfig(process.env)); await app.listen({ port: 3000 });
 */
export async function buildApp(
  config: Config,
  overrides: BuildAppOverrides = {},
): Promise<FastifyInstance> {
  const clock = overrides.clock ?? systemClock;
  const logger: FastifyBaseLogger = createLogger(config.logLevel, overrides.logStream);
  const app = createFastify(config, logger);

  const store = overrides.store ?? (await openAppStore(config, logger));
  // Redis is optional: without it the rate limit and the event bus stay in this process.
  // Its client (ioredis) is loaded only when configured: it would cost idle memory otherwise.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : undefined;
  if (redis && !(await redis.ready(REDIS_CONNECT_WAIT_MS))) {
    app.log.warn({}, 'redis did not answer at start: going on without it until it does');
  }
  const rateLimitStore =
    overrides.rateLimitStore ??
    (redis
      ? new RedisRateLimitStore(
          redis,
          config.redisKeyPrefix,
          new MemoryRateLimitStore(clock),
          clock,
        )
      : new MemoryRateLimitStore(clock));
  const workers = new Workers();
  app.decorate('config', config);
  app.decorate('store', store);
  app.decorate('clock', clock);
  app.decorate(
    'services',
    createServices(store, clock, config, {
      ...(overrides.webhookResolver ? { webhookResolver: overrides.webhookResolver } : {}),
      ...(overrides.providerRegistry ? { providerRegistry: overrides.providerRegistry } : {}),
      ...(redis ? { redis } : {}),
    }),
  );
  app.decorate('workers', workers);
  app.decorateRequest('correlationId', '');
  app.decorateRequest('auth', null);

  app.addHook('onClose', async () => {
    for (const error of await workers.stopAll()) app.log.error({ err: error }, 'worker failed');
    await rateLimitStore.close();
    const bus = app.services.events.bus;
    if (bus instanceof RedisEventBus) bus.close();
    await redis?.close();
    if (!overrides.store) await store.close();
    overrides.onClosed?.();
  });

  try {
    registerRequestHooks(app);
    registerErrorHandling(app);
    await registerContractRoutes(app, {
      config,
      services: app.services,
      rateLimitStore,
      clock,
    });
    await app.ready();
    if (overrides.startWorkers !== false) await startWorkers(app);
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}

/**
 * Starts what works in the background: webhook delivery (and its recovery), the providers, the
 * message dispatcher (and its recovery), the scheduler and the chat side. The server calls it
 * once its port is bound, so a start that fails to bind has run none of it.
 */
export async function startWorkers(
  app: FastifyInstance,
  options: { exclusive?: boolean } = {},
): Promise<void> {
  // Added first, stopped last: commits made while the dispatcher stops still wake the others.
  const wakeUp = app.services.webhookWakeUp;
  if (wakeUp) {
    app.workers.add(wakeUp);
    await wakeUp.start();
  }
  app.workers.add(app.services.webhookDispatcher);
  await app.services.webhookDispatcher.start(app.log, options);
  await startMessaging(app.services, app.workers, app.log);
  await startChats(app.services, app.workers, app.log);
  startDataLifecycle(app.services, app.workers, app.log);
  // Whether voice memos and videos can be converted: said once at start, shown by /health.
  void app.services.mediaEngine.status().then((status) => {
    if (status.available) {
      const { ffmpeg, source, version, outdated } = status.tools;
      app.log.info({ ffmpeg, source, version }, 'media transcoding available');
      if (outdated !== undefined) app.log.warn({ ffmpeg, source, version }, outdated);
    } else {
      app.log.warn(
        { reason: status.reason },
        'media transcoding unavailable: sends that need a conversion (voice memos, whatsapp video) will fail',
      );
    }
  });
}

/** Connects to Redis, loading its client on first use. */
async function connectRedis(url: string, logger: RedisLogger): Promise<RedisConnection> {
  const { RedisConnection } = await import('./redis/redis-connection');
  return new RedisConnection(url, logger);
}
