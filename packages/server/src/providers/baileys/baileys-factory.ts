import { BaileysInstanceConfig, PROVIDER_CHANNELS } from '@switchboard/contract';
import type { BaileysAdapterOptions } from '@switchboard/provider-baileys';
import type {
  MessagingProvider,
  ProviderFactory,
  ProviderInstanceConfig,
} from '@switchboard/provider-kit';
import { ProviderConfigError } from '@switchboard/provider-kit';

/** The package the WhatsApp adapter ships in: optional, and never bundled into the server. */
export const BAILEYS_PACKAGE = '@switchboard/provider-baileys';

/** What the server uses of the adapter package. */
type BaileysAdapterModule = typeof import('@switchboard/provider-baileys');

/** Server-wide Baileys settings: tests inject a fake socket; timings. */
export interface BaileysFactoryOptions extends BaileysAdapterOptions {
  /** Where to load the adapter from (default {@link BAILEYS_PACKAGE}). */
  packageName?: string;
}

function isModuleNotFound(error: unknown, specifier: string): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    String((error as Error).message).includes(specifier)
  );
}

/**
 * Loads the adapter package. A missing package is an operator's configuration problem, told in
 * one line: which package to install and why it is separate.
 * @throws {ProviderConfigError} when the package is not installed or does not load.
 */
export async function loadBaileysAdapter(
  specifier: string = BAILEYS_PACKAGE,
): Promise<BaileysAdapterModule> {
  try {
    // A computed specifier: bundlers leave it alone, so the adapter is never bundled in.
    return (await import(/* @vite-ignore */ specifier)) as BaileysAdapterModule;
  } catch (error) {
    if (isModuleNotFound(error, specifier)) {
      throw new ProviderConfigError(
        `the baileys adapter is a separate package: install ${specifier} beside the server ` +
          '(it brings Baileys and its GPL-3.0 Signal library; see the README on licences)',
        { cause: error },
      );
    }
    throw new ProviderConfigError(
      `the baileys adapter (${specifier}) could not be loaded: ${String(error)}`,
      { cause: error },
    );
  }
}

/** A factory of `baileys` instances: building one loads the adapter, so it answers a promise. */
export type BaileysFactory = Omit<ProviderFactory, 'create'> & {
  create(instance: ProviderInstanceConfig): Promise<MessagingProvider>;
};

/**
 * The factory of `baileys` instances: validates the config against the contract's
 * `BaileysInstanceConfig`, then loads the optional adapter package (only now, when an operator
 * configured such an instance) and builds the instance with it.
 * @example registry.register(createBaileysFactory());
 */
export function createBaileysFactory(options: BaileysFactoryOptions = {}): BaileysFactory {
  const { packageName, ...adapterOptions } = options;
  return {
    provider: 'baileys',
    supportedChannels: PROVIDER_CHANNELS.baileys,
    async create(instance: ProviderInstanceConfig): Promise<MessagingProvider> {
      const parsed = BaileysInstanceConfig.safeParse(instance.config);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ProviderConfigError(
          `instance "${instance.name}": invalid baileys config${issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : ''}`,
        );
      }
      const adapter = await loadBaileysAdapter(packageName);
      return adapter.createBaileysProvider(
        { name: instance.name, config: parsed.data },
        adapterOptions,
      );
    },
  };
}
