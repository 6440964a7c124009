import type { Channel } from '@switchboard/contract';
import type { Clock } from '../clock';
import { DomainError } from '../domain/domain-error';
import type { MessagingProvider, ProviderHealth, ProviderLogger } from '../providers/provider';
import { ProviderError } from '../providers/provider-error';
import type { ProviderInboundEvent, ProviderInboundEventKind } from '../providers/provider-events';
import type { ProviderRegistry } from '../providers/provider-registry';
import { PeriodicTask } from '../scheduler/periodic-task';
import type { InstanceHealth } from '../store/instance-repository';
import type { Store } from '../store/store';
import type { Worker } from '../workers';
import type { InboundContext, InboundHandler, ProviderHub } from './provider-hub';
import { StoreProviderStateStore } from './store-provider-state-store';

/** A logger that can bind fields for one instance (pino's logger fits). */
export interface RuntimeLogger extends ProviderLogger {
  /** A logger that adds `bindings` to every line. */
  child(bindings: Record<string, unknown>): ProviderLogger;
}

/** Dependencies of {@link RuntimeProviderHub}. */
export interface RuntimeProviderHubOptions {
  /** Where instances and their provider state live. */
  store: Store;
  /** The adapters, by name. */
  registry: ProviderRegistry;
  /** The time source of health records. */
  clock: Clock;
  /** How often every instance's health is checked (`INSTANCE_HEALTH_INTERVAL_MS`). */
  healthIntervalMs: number;
}

/** Logs nothing: the hub's logger until {@link RuntimeProviderHub.start} provides one. */
const silentLogger: RuntimeLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};

/** A started provider and what its events are tagged with. */
interface RunningInstance {
  provider: MessagingProvider;
  context: InboundContext;
}

/** A handler of any kind, as stored in the dispatch table. */
type AnyInboundHandler = (event: ProviderInboundEvent, context: InboundContext) => Promise<void>;

/**
 * The running providers of the stored instances. Each is built through the registry, started with
 * a durable state store and a sink that hands every event to the handler registered for its
 * `kind`; instances added later (operator API) start on first use. A periodic check records every
 * instance's health, which `/health` and `GET /v1/numbers` report.
 */
export class RuntimeProviderHub implements ProviderHub, Worker {
  /** Name for the logs. */
  readonly name = 'provider-hub';
  readonly #options: RuntimeProviderHubOptions;
  readonly #handlers = new Map<ProviderInboundEventKind, AnyInboundHandler>();
  readonly #instances = new Map<string, Promise<RunningInstance>>();
  readonly #healthTask: PeriodicTask;
  #stopped = false;
  #logger: RuntimeLogger = silentLogger;

  /** A hub that starts nothing until {@link start}. */
  constructor(options: RuntimeProviderHubOptions) {
    this.#options = options;
    this.#healthTask = new PeriodicTask({
      name: 'instance-health',
      // The first check comes one interval after start: until then an instance keeps the health
      // its last check recorded (`unknown` for a new one).
      intervalMs: options.healthIntervalMs,
      run: () => this.checkHealth(),
      onError: (error) => this.#logger.error({ err: error }, 'instance health check failed'),
    });
  }

  on<K extends ProviderInboundEventKind>(kind: K, handler: InboundHandler<K>): void {
    if (this.#handlers.has(kind)) {
      throw new Error(`a handler for provider events of kind "${kind}" is already registered`);
    }
    this.#handlers.set(kind, handler as AnyInboundHandler);
  }

  async provider(instanceId: string): Promise<MessagingProvider> {
    return (await this.#running(instanceId)).provider;
  }

  /** The context (name, adapter, channels) of a started instance. */
  async context(instanceId: string): Promise<InboundContext> {
    return (await this.#running(instanceId)).context;
  }

  /** Starts every stored instance and the health checks; `logger` receives what they report. */
  async start(logger?: RuntimeLogger): Promise<void> {
    if (logger) this.#logger = logger;
    this.#stopped = false;
    const instances = await this.#options.store.instances.list();
    await Promise.all(
      instances.map((instance) =>
        this.#running(instance.id).catch((error: unknown) =>
          this.#logger.error(
            { err: error, instance: instance.name },
            'provider instance failed to start',
          ),
        ),
      ),
    );
    this.#healthTask.start();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#healthTask.stop();
    const running = [...this.#instances.values()];
    this.#instances.clear();
    await Promise.all(
      running.map(async (pending) => {
        const instance = await pending.catch(() => undefined);
        await instance?.provider
          .stop()
          .catch((error: unknown) =>
            this.#logger.error(
              { err: error, instance: instance.context.instanceName },
              'provider instance failed to stop',
            ),
          );
      }),
    );
  }

  /**
   * Checks the health of every stored instance now and records it; an instance whose provider
   * cannot start is recorded `unhealthy` with the reason.
   */
  async checkHealth(): Promise<void> {
    const instances = await this.#options.store.instances.list();
    await Promise.all(instances.map((instance) => this.checkInstanceHealth(instance.id)));
  }

  /**
   * Checks one instance's health now and records it (unless the hub has stopped meanwhile), so a
   * change is reported at once instead of at the next periodic check.
   * @returns the outcome of the check.
   */
  async checkInstanceHealth(instanceId: string): Promise<InstanceHealth> {
    let health: { status: ProviderHealth['status']; warnings: string[] };
    try {
      const result = await (await this.provider(instanceId)).health();
      health = { status: result.status, warnings: result.warnings.map((w) => w.message) };
    } catch (error) {
      health = {
        status: 'unhealthy',
        warnings: [error instanceof Error ? error.message : String(error)],
      };
    }
    const checked = { ...health, checkedAt: new Date(this.#options.clock.now()) };
    if (!this.#stopped) await this.#options.store.instances.updateHealth(instanceId, checked);
    return checked;
  }

  #running(instanceId: string): Promise<RunningInstance> {
    if (this.#stopped) {
      return Promise.reject(new ProviderError('INTERNAL_ERROR', 'the provider hub is stopped'));
    }
    let running = this.#instances.get(instanceId);
    if (!running) {
      running = this.#startInstance(instanceId);
      this.#instances.set(instanceId, running);
      // A failed start is not remembered: the next use tries again (the config may be fixed).
      running.catch(() => {
        if (this.#instances.get(instanceId) === running) this.#instances.delete(instanceId);
      });
    }
    return running;
  }

  async #startInstance(instanceId: string): Promise<RunningInstance> {
    const instance = await this.#options.store.instances.findById(instanceId);
    if (!instance) throw new DomainError('NOT_FOUND', `No instance ${instanceId} exists`);
    let provider: MessagingProvider;
    try {
      provider = this.#options.registry.create({
        name: instance.name,
        provider: instance.provider,
        channels: instance.channels,
        config: instance.config,
      });
    } catch (error) {
      // The details (configuration problems) are for operators: they go to the log, while
      // customers and the public /health only learn that the instance is unavailable.
      this.#logger.error(
        { err: error, instance: instance.name },
        'provider instance cannot be built from its configuration',
      );
      throw new ProviderError('INTERNAL_ERROR', `The instance "${instance.name}" is unavailable`, {
        retryable: false,
        cause: error,
      });
    }
    const context: InboundContext = {
      instanceId: instance.id,
      instanceName: instance.name,
      provider: instance.provider,
      channels: [...instance.channels] as Channel[],
    };
    const logger = this.#logger.child({ instance: instance.name });
    await provider.start({
      sink: (event) => this.#dispatch(event, context, logger),
      state: new StoreProviderStateStore(this.#options.store.providerState, instance.id),
      logger,
    });
    return { provider, context };
  }

  async #dispatch(
    event: ProviderInboundEvent,
    context: InboundContext,
    logger: ProviderLogger,
  ): Promise<void> {
    const handler = this.#handlers.get(event.kind);
    if (!handler) {
      logger.warn({ kind: event.kind }, 'provider event dropped: no handler for its kind');
      return;
    }
    await handler(event, context);
  }
}
