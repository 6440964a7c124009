import {
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type Registry as PromRegistry,
  Registry,
} from 'prom-client';
import type { CommittedEvent } from '../events/event-service';
import type { Store } from '../store/store';
import { type DeliveryVerdicts, registerDeliveryGauges } from './delivery-gauges';

/** What the metrics read at scrape time. */
export interface MetricsSources {
  /** Message and delivery counts, provider instances. */
  store: Pick<Store, 'messages' | 'deliveries' | 'instances' | 'unroutedInbound'>;
  /** Open event streams. */
  streams: { readonly size: number };
  /** The delivery watchdog's verdicts per instance, number and channel. */
  deliveries?: DeliveryVerdicts;
}

/** Latency buckets of API requests, in seconds (1 ms to 10 s). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Buckets of how late webhook attempts leave after they are due, in seconds. */
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800];
/** The provider health values, one series each (1 for the current one). */
const HEALTH_STATUSES = ['healthy', 'degraded', 'unhealthy', 'unknown'] as const;

/**
 * The gateway's Prometheus metrics (`GET /metrics`, prom-client): API requests by route and
 * status with latency, messages reaching each status by channel, the outbox and scheduled depth,
 * webhook attempts by outcome with their lag, inbound items kept for unassigned addresses, open event streams, provider health per instance,
 * and the process's own (event-loop lag, CPU, memory, handles). Counters are this process's since
 * it started; depths and health are read from the store when scraped.
 */
export class GatewayMetrics {
  /** The registry `/metrics` renders. */
  readonly registry: PromRegistry = new Registry();
  readonly #requests: Histogram<'method' | 'route' | 'status'>;
  readonly #messages: Counter<'status' | 'channel'>;
  readonly #deliveries: Counter<'outcome'>;
  readonly #lag: Histogram;
  readonly #unrouted: Counter<'kind'>;

  /** Metrics over `sources`, registered in a registry of their own. */
  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'switchboard_process_' });
    this.#requests = new Histogram({
      name: 'switchboard_http_request_duration_seconds',
      help: 'API requests by method, route pattern and status code, with their duration.',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.#messages = new Counter({
      name: 'switchboard_messages_total',
      help: 'Messages that reached each status (from their lifecycle events), by channel.',
      labelNames: ['status', 'channel'],
      registers,
    });
    this.#deliveries = new Counter({
      name: 'switchboard_webhook_deliveries_total',
      help: 'Webhook and callback delivery attempts by outcome (delivered, pending = retry planned, failed).',
      labelNames: ['outcome'],
      registers,
    });
    this.#lag = new Histogram({
      name: 'switchboard_webhook_delivery_lag_seconds',
      help: 'How long after it was due each webhook attempt left.',
      buckets: LAG_BUCKETS,
      registers,
    });
    this.#unrouted = new Counter({
      name: 'switchboard_inbound_unrouted_total',
      help: 'Inbound messages, reactions and events kept because no customer has their receiving address on the instance, by provider event kind.',
      labelNames: ['kind'],
      registers,
    });
    const { store, streams } = sources;
    new Gauge({
      name: 'switchboard_inbound_unrouted_kept',
      help: 'Inbound items kept for addresses no customer has, waiting for the address to be assigned, a discard, or their retention to end.',
      registers,
      async collect() {
        this.set(await store.unroutedInbound.count({}));
      },
    });
    new Gauge({
      name: 'switchboard_outbox_messages',
      help: 'Messages waiting to be handed to a provider (queued) or being handed (pending).',
      labelNames: ['status'],
      registers,
      async collect() {
        const counts = await store.messages.countByStatus(['queued', 'pending']);
        this.set({ status: 'queued' }, counts.queued ?? 0);
        this.set({ status: 'pending' }, counts.pending ?? 0);
      },
    });
    new Gauge({
      name: 'switchboard_scheduled_messages',
      help: 'Messages scheduled for later.',
      registers,
      async collect() {
        this.set((await store.messages.countByStatus(['scheduled'])).scheduled ?? 0);
      },
    });
    new Gauge({
      name: 'switchboard_webhook_deliveries_pending',
      help: 'Webhook and callback attempts waiting to be made (due or not).',
      registers,
      async collect() {
        this.set(await store.deliveries.countPending());
      },
    });
    new Gauge({
      name: 'switchboard_event_stream_subscribers',
      help: 'Open GET /v1/events streams.',
      registers,
      collect() {
        this.set(streams.size);
      },
    });
    if (sources.deliveries) registerDeliveryGauges(sources.deliveries, registers);
    new Gauge({
      name: 'switchboard_provider_health',
      help: 'Health of each provider instance: 1 for its current status, 0 for the others.',
      labelNames: ['instance', 'provider', 'status'],
      registers,
      async collect() {
        this.reset();
        for (const instance of await store.instances.list()) {
          for (const status of HEALTH_STATUSES) {
            this.set(
              { instance: instance.name, provider: instance.provider, status },
              instance.healthStatus === status ? 1 : 0,
            );
          }
        }
      },
    });
  }

  /** Counts one answered request; `route` is the route's pattern (`/v1/messages/:id`). */
  request(method: string, route: string, status: number, seconds: number): void {
    this.#requests.observe({ method, route, status: String(status) }, seconds);
  }

  /** Counts a committed lifecycle event of a message (`message.sent` on `imessage`). */
  event(event: CommittedEvent): void {
    if (!event.type.startsWith('message.')) return;
    this.#messages.inc({
      status: event.type.slice('message.'.length),
      channel: event.channel ?? 'none',
    });
  }

  /** Counts one webhook attempt. */
  delivery(attempt: { outcome: string; lagMs: number }): void {
    this.#deliveries.inc({ outcome: attempt.outcome });
    this.#lag.observe(attempt.lagMs / 1000);
  }

  /** Counts one inbound item kept because no customer could receive it. */
  unrouted(kind: string): void {
    this.#unrouted.inc({ kind });
  }

  /** The metrics in the Prometheus text format, and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
