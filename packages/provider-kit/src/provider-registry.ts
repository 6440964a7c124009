import type { Channel } from '@switchboard/contract';
import type { MessagingProvider } from './provider';

/** What an instance is made of: an adapter, its settings and the channels it serves. */
export interface ProviderInstanceConfig {
  /** The instance's unique friendly name. */
  name: string;
  /** The adapter name. */
  provider: string;
  /** The channels the instance serves; a subset of the adapter's. */
  channels: readonly Channel[];
  /** Adapter-specific settings (URLs, credentials, timings), validated by the factory. */
  config: Readonly<Record<string, unknown>>;
}

/** Builds the instances of one adapter. */
export interface ProviderFactory {
  /** The adapter name instances are configured with. */
  readonly provider: string;
  /** The channels the adapter can serve. */
  readonly supportedChannels: readonly Channel[];
  /**
   * Builds an instance; throws (or rejects with) {@link ProviderConfigError} when
   * `instance.config` is invalid or the adapter cannot be loaded. Adapters published as their
   * own package (Baileys) load it here, hence the promise.
   */
  create(instance: ProviderInstanceConfig): MessagingProvider | Promise<MessagingProvider>;
}

/** An instance cannot be built from its configuration. */
export class ProviderConfigError extends Error {
  override readonly name = 'ProviderConfigError';
}

/**
 * The adapters the gateway knows, by name.
 * @example const provider = new ProviderRegistry().register(simulatorFactory).create(instance);
 */
export class ProviderRegistry {
  readonly #factories = new Map<string, ProviderFactory>();

  /** Adds an adapter; registering a name twice is a programming error. */
  register(factory: ProviderFactory): this {
    if (this.#factories.has(factory.provider)) {
      throw new ProviderConfigError(`provider "${factory.provider}" is already registered`);
    }
    this.#factories.set(factory.provider, factory);
    return this;
  }

  /** The adapter names, in registration order. */
  names(): string[] {
    return [...this.#factories.keys()];
  }

  /** The factory of `provider`, or undefined. */
  get(provider: string): ProviderFactory | undefined {
    return this.#factories.get(provider);
  }

  /** Builds an instance, after checking its adapter exists and can serve its channels. */
  async create(instance: ProviderInstanceConfig): Promise<MessagingProvider> {
    const factory = this.#factories.get(instance.provider);
    if (!factory) {
      throw new ProviderConfigError(
        `instance "${instance.name}": unknown provider "${instance.provider}" (known: ${this.names().join(', ') || 'none'})`,
      );
    }
    if (instance.channels.length === 0) {
      throw new ProviderConfigError(`instance "${instance.name}" serves no channel`);
    }
    const unsupported = instance.channels.filter(
      (channel) => !factory.supportedChannels.includes(channel),
    );
    if (unsupported.length > 0) {
      throw new ProviderConfigError(
        `instance "${instance.name}": provider "${instance.provider}" cannot serve ${unsupported.join(', ')}`,
      );
    }
    return factory.create(instance);
  }
}
