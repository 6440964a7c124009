import { type Clock, systemClock } from '../clock';
import { type Config, loadConfig } from '../config';
import { openStore } from '../store/open-store';
import type { Store } from '../store/store';
import { createServices, type Services } from '../wiring/services';
import type { CliStreams } from './output';

/** What a CLI run starts from: its environment and output streams. */
export interface CliEnvironment extends CliStreams {
  /** Environment variables (configuration). */
  env: Record<string, string | undefined>;
  /** The time source (default: the system clock). */
  clock?: Clock;
}

/** What an operator command works with: the configuration and the services over an open store. */
export interface CommandContext {
  /** The configuration the command runs with. */
  config: Config;
  /** The open store. */
  store: Store;
  /** The domain services. */
  services: Services;
  /** The time source. */
  clock: Clock;
}

/** Opens the configured store, runs `work` with the services, and closes the store. */
export async function withStore<T>(
  environment: CliEnvironment,
  work: (context: CommandContext) => Promise<T>,
): Promise<T> {
  const config = loadConfig(environment.env);
  const clock = environment.clock ?? systemClock;
  const store = openStore(config.databaseUrl, { encryptionKey: config.encryptionKey });
  try {
    return await work({ config, store, services: createServices(store, clock, config), clock });
  } finally {
    await store.close();
  }
}
