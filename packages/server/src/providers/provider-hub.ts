import type { Channel } from '@switchboard/contract';
import type { MessagingProvider, ProviderInboundEvent } from '@switchboard/provider-kit';

/** The context of an inbound provider event: which instance it came from. */
export interface InboundContext {
  /** The id of the instance (row of `instances`) whose provider emitted the event. */
  readonly instanceId: string;
  /** Its friendly name. */
  readonly instanceName: string;
  /** The provider adapter name (`simulator`, `bluebubbles`…). */
  readonly provider: string;
  /** The channels the instance serves. */
  readonly channels: readonly Channel[];
}

/** Handles one kind of inbound provider event. Must be idempotent (events come at least once). */
export type InboundHandler<K extends ProviderInboundEvent['kind']> = (
  event: Extract<ProviderInboundEvent, { kind: K }>,
  context: InboundContext,
) => Promise<void>;

/**
 * The running providers: one {@link MessagingProvider} per configured instance, started with a
 * durable state store and one sink that dispatches every inbound event to the handler registered
 * for its `kind`. Instances created after start-up (operator API) are started on first use.
 *
 * Implemented by the messaging work (`provider-runtime/runtime-provider-hub.ts`).
 */
export interface ProviderHub {
  /** The started provider of an instance; throws DomainError NOT_FOUND for an unknown instance. */
  provider(instanceId: string): Promise<MessagingProvider>;
  /**
   * Registers the handler of one inbound event kind (one handler per kind; registering twice is
   * a programming error). Events of a kind without handler are logged and dropped.
   */
  on<K extends ProviderInboundEvent['kind']>(kind: K, handler: InboundHandler<K>): void;
  /** Starts the providers of every stored instance (called once at app start). */
  start(): Promise<void>;
  /** Stops every started provider. */
  stop(): Promise<void>;
}
