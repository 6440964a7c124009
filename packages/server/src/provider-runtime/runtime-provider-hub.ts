import { randomUUID } from 'node:crypto';
import type { Channel, InstancePacing } from '@switchboard/contract';
import type {
  MessagingProvider,
  ProviderHealth,
  ProviderInboundEvent,
  ProviderInboundEventKind,
  ProviderLogger,
  ProviderRegistry,
} from '@switchboard/provider-kit';
import { ProviderError, SinkUnavailableError } from '@switchboard/provider-kit';
import type { Clock } from '../clock';
import { DomainError } from '../domain/domain-error';
import { ingressUrlOf } from '../domain/instances/instance-view';
import { type EffectivePacing, effectivePacing } from '../domain/messages/instance-pacer';
import type { InboundContext, InboundHandler, ProviderHub } from '../providers/provider-hub';
import { PeriodicTask } from '../scheduler/periodic-task';
import type { InstanceHealth, InstanceRecord } from '../store/instance-repository';
import type { Store } from '../store/store';
import { storeUnavailableReason } from '../store/store-unavailable';
import type { Worker } from '../workers';
import { StoreProviderLeases } from './store-provider-leases';
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
  /** The server's public address: ingress URLs handed to providers are built on it. */
  publicBaseUrl: string;
  /**
   * How often the stored instances are compared with the running ones, so a change made by the
   * CLI (or another process) restarts the instance here too. Default 10 s.
   */
  syncIntervalMs?: number;
  /** How long upstream event ids are remembered for de-duplication (default 30 days). */
  dedupeRetentionMs?: number;
}

/** Logs nothing: the hub's logger until {@link RuntimeProviderHub.start} provides one. */
const silentLogger: RuntimeLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};

/** A started provider, what its events are tagged with, and how fast it may send. */
interface RunningInstance {
  provider: MessagingProvider;
  context: InboundContext;
  pacing: EffectivePacing;
}

/** A handler of any kind, as stored in the dispatch table. */
type AnyInboundHandler = (event: ProviderInboundEvent, context: InboundContext) => Promise<void>;

/**
 * The running providers of the stored instances. Each is built through the registry, started with
 * a durable state store, its ingress URL and a sink that hands every event (once per upstream
 * event id) to the handler registered for its `kind`. Instances start at start-up or on first
 * use; a change of an instance's settings restarts that instance alone, and a disabled or deleted
 * instance is stopped. A periodic check records every instance's health, which `/health` and
 * `GET /v1/numbers` report.
 */
export class RuntimeProviderHub implements ProviderHub, Worker {
  /** Name for the logs. */
  readonly name = 'provider-hub';
  readonly #options: RuntimeProviderHubOptions;
  readonly #handlers = new Map<ProviderInboundEventKind, AnyInboundHandler>();
  readonly #instances = new Map<string, Promise<RunningInstance>>();
  readonly #healthTask: PeriodicTask;
  readonly #syncTask: PeriodicTask;
  /** The `updatedAt` of each instance when it was last (tried to be) started. */
  readonly #versions = new Map<string, number>();
  /** Who holds this process's provider leases: one random id per hub (per server process). */
  readonly #leaseHolder = `hub_${randomUUID()}`;
  #stopped = false;
  #logger: RuntimeLogger = silentLogger;
  /** What the gateway itself has to say about an instance, added to its provider's warnings. */
  #warningSources: ((instanceId: string) => Promise<string[]>)[] = [];

  /** A hub that starts nothing until {@link start}. */
  constructor(options: RuntimeProviderHubOptions) {
    this.#options = options;
    this.#healthTask = new PeriodicTask({
      name: 'instance-health',
      // The first check runs at start (see `start`), the next ones every interval.
      intervalMs: options.healthIntervalMs,
      run: () => this.checkHealth(),
      onError: (error) => this.#logger.error({ err: error }, 'instance health check failed'),
    });
    this.#syncTask = new PeriodicTask({
      name: 'instance-sync',
      intervalMs: options.syncIntervalMs ?? 10_000,
      run: () => this.sync(),
      onError: (error) => this.#logger.error({ err: error }, 'instance sync failed'),
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

  /** The send rate and concurrency of an instance (started on first use). */
  async pacing(instanceId: string): Promise<EffectivePacing> {
    return (await this.#running(instanceId)).pacing;
  }

  /** The context (name, adapter, channels) of a started instance. */
  async context(instanceId: string): Promise<InboundContext> {
    return (await this.#running(instanceId)).context;
  }

  /**
   * Adds warnings of the gateway's own about instances (inbound kept for addresses no customer
   * has) to every health check; a source that fails adds nothing.
   */
  addWarningSource(source: (instanceId: string) => Promise<string[]>): void {
    this.#warningSources.push(source);
  }

  /** Starts every enabled instance and the periodic tasks; `logger` receives what they report. */
  async start(logger?: RuntimeLogger): Promise<void> {
    if (logger) this.#logger = logger;
    this.#stopped = false;
    const instances = await this.#options.store.instances.list();
    await Promise.all(instances.filter((i) => i.enabled).map((i) => this.#startLogged(i)));
    this.#healthTask.start();
    this.#syncTask.start();
    // The first health check at start, not one interval later; in the background, so a Mac or an
    // account that does not answer never holds up the start.
    void this.#healthTask.runNow();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#healthTask.stop();
    await this.#syncTask.stop();
    const ids = [...this.#instances.keys()];
    await Promise.all(ids.map((id) => this.#stopInstance(id)));
  }

  /**
   * An instance's settings changed (or it was enabled, disabled, deleted): stops the running
   * provider and, when the instance is enabled and not deleted, starts it again with the new
   * settings. Other instances are untouched.
   */
  async changed(instanceId: string): Promise<void> {
    if (this.#stopped) return;
    await this.#stopInstance(instanceId);
    const record = await this.#options.store.instances.findById(instanceId);
    if (record?.enabled && record.deletedAt === null) await this.#startLogged(record);
  }

  /**
   * Compares the stored instances with the running ones: restarts those whose settings changed
   * since they started, stops those now disabled or deleted, starts enabled ones not running.
   */
  async sync(): Promise<void> {
    const stored = new Map(
      (await this.#options.store.instances.list()).map((record) => [record.id, record]),
    );
    for (const id of this.#instances.keys()) {
      if (!stored.get(id)?.enabled) await this.#stopInstance(id);
    }
    for (const record of stored.values()) {
      if (!record.enabled || this.#versions.get(record.id) === record.updatedAt.getTime()) {
        continue;
      }
      await this.changed(record.id);
    }
  }

  /**
   * Checks the health of every stored instance now and records it; an instance whose provider
   * cannot start is recorded `unhealthy` with the reason. Also forgets upstream event ids older
   * than the de-duplication window.
   */
  async checkHealth(): Promise<void> {
    const instances = await this.#options.store.instances.list();
    await Promise.all(instances.map((instance) => this.checkInstanceHealth(instance.id)));
    const retention = this.#options.dedupeRetentionMs ?? 30 * 24 * 60 * 60 * 1000;
    await this.#options.store.providerEventReceipts.prune(
      new Date(this.#options.clock.now() - retention),
    );
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
    for (const source of this.#warningSources) {
      health.warnings.push(...(await source(instanceId).catch(() => [])));
    }
    const checked = { ...health, checkedAt: new Date(this.#options.clock.now()) };
    if (!this.#stopped) await this.#options.store.instances.updateHealth(instanceId, checked);
    return checked;
  }

  async #startLogged(record: InstanceRecord): Promise<void> {
    await this.#running(record.id).catch((error: unknown) =>
      this.#logger.error(
        { err: error, instance: record.name },
        'provider instance failed to start',
      ),
    );
  }

  async #stopInstance(instanceId: string): Promise<void> {
    const pending = this.#instances.get(instanceId);
    if (!pending) return;
    this.#instances.delete(instanceId);
    const instance = await pending.catch(() => undefined);
    await instance?.provider
      .stop()
      .catch((error: unknown) =>
        this.#logger.error(
          { err: error, instance: instance.context.instanceName },
          'provider instance failed to stop',
        ),
      );
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
    if (!instance || instance.deletedAt !== null) {
      throw new DomainError('NOT_FOUND', `No instance ${instanceId} exists`);
    }
    this.#versions.set(instance.id, instance.updatedAt.getTime());
    if (!instance.enabled) {
      throw new ProviderError('INTERNAL_ERROR', `The instance "${instance.name}" is disabled`, {
        retryable: true,
      });
    }
    let provider: MessagingProvider;
    try {
      provider = await this.#options.registry.create({
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
      leases: new StoreProviderLeases(
        this.#options.store.providerLeases,
        instance.id,
        this.#leaseHolder,
        this.#options.clock,
      ),
      logger,
      webhookUrl: ingressUrlOf(this.#options.publicBaseUrl, instance),
      isStaleIngressUrl: (url) => this.#isStaleIngressUrl(url),
    });
    const pacing = effectivePacing(
      instance.provider,
      (instance.config as { pacing?: InstancePacing }).pacing,
    );
    return { provider, context, pacing };
  }

  /**
   * Whether `url` is an ingress URL of this gateway (under `PUBLIC_BASE_URL`, the ingress path's
   * shape) whose instance is gone or whose token is not the instance's any more.
   */
  async #isStaleIngressUrl(url: string): Promise<boolean> {
    const prefix = `${this.#options.publicBaseUrl}/providers/`;
    if (!url.startsWith(prefix)) return false;
    const match = /^([0-9a-f-]{36})\/webhook\/([^/?#]+)$/.exec(url.slice(prefix.length));
    if (!match) return false;
    const [, instanceId = '', token] = match;
    const instance = await this.#options.store.instances.findById(instanceId);
    return !instance || instance.deletedAt !== null || instance.ingressToken !== token;
  }

  /**
   * The sink of an instance's events: a database that cannot be written now answers the port's
   * {@link SinkUnavailableError}, so the provider (or its upstream) offers the event again later.
   */
  #dispatch(
    event: ProviderInboundEvent,
    context: InboundContext,
    logger: ProviderLogger,
  ): Promise<void> {
    return unavailableAsRetryable(() => this.#handle(event, context, logger));
  }

  async #handle(
    event: ProviderInboundEvent,
    context: InboundContext,
    logger: ProviderLogger,
  ): Promise<void> {
    const handler = this.#handlers.get(event.kind);
    if (!handler) {
      logger.warn({ kind: event.kind }, 'provider event dropped: no handler for its kind');
      return;
    }
    const upstreamId = event.upstreamEventId;
    if (upstreamId === undefined) {
      await handler(event, context);
      return;
    }
    const receipts = this.#options.store.providerEventReceipts;
    const at = new Date(this.#options.clock.now());
    if (!(await receipts.claim(context.instanceId, upstreamId, at))) {
      logger.debug({ kind: event.kind, upstreamId }, 'provider event dropped: already taken');
      return;
    }
    try {
      await handler(event, context);
    } catch (error) {
      // Not taken after all: a redelivery must be handled.
      await receipts.release(context.instanceId, upstreamId).catch(() => undefined);
      throw error;
    }
  }
}

/** Runs a sink handler; a database that cannot be written now becomes the port's retryable error. */
async function unavailableAsRetryable(handle: () => Promise<void>): Promise<void> {
  try {
    await handle();
  } catch (error) {
    const reason = storeUnavailableReason(error);
    if (reason === undefined) throw error;
    throw new SinkUnavailableError(`the event could not be recorded now: ${reason}`, {
      cause: error,
    });
  }
}
