import { existsSync } from 'node:fs';
import { type Clock, systemClock } from '../clock';
import { type Config, loadConfig } from '../config';
import { isPostgresUrl, openStore } from '../store/open-store';
import type { Store } from '../store/store';
import { createServices, type Services } from '../wiring/services';
import { CliRefusalError } from './cli-refusal-error';
import type { CliStreams } from './output';

/** What a CLI run starts from: its environment and output streams. */
export interface CliEnvironment extends CliStreams {
  /** Environment variables (configuration). */
  env: Record<string, string | undefined>;
  /** The time source (default: the system clock). */
  clock?: Clock;
  /** `--create-database`: a missing SQLite file may be created (set from the global option). */
  createDatabase?: boolean;
  /** Ends long-running commands (`listen`); default: SIGINT or SIGTERM. */
  signal?: AbortSignal;
  /**
   * How `listen` and `whatsapp pair` follow the event stream: the liveness deadline and the first
   * reconnect delay, in milliseconds (defaults 45 000 and 1 000; tests shorten them).
   */
  eventStream?: { idleTimeoutMs?: number; reconnectMs?: number };
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

/** Whether the database is a SQLite file (not `:memory:`, not a server URL). */
function sqliteFileOf(databaseUrl: string): string | undefined {
  return isPostgresUrl(databaseUrl) || databaseUrl.startsWith(':memory:') ? undefined : databaseUrl;
}

/**
 * Opens the configured store, runs `work` with the services, and closes the store. It names the
 * database it opened on stderr (stdout stays the command's output, clean JSON with `--json`), and
 * refuses to create a SQLite file that does not exist unless `create` (or `--create-database`)
 * says so: a CLI run from the wrong directory must not seed a database no server uses.
 * @throws {CliRefusalError} when the database file is missing and may not be created.
 */
export async function withStore<T>(
  environment: CliEnvironment,
  work: (context: CommandContext) => Promise<T>,
  options: { create?: boolean } = {},
): Promise<T> {
  const config = loadConfig(environment.env);
  const clock = environment.clock ?? systemClock;
  const file = sqliteFileOf(config.databaseUrl);
  if (file !== undefined && !existsSync(file) && !options.create && !environment.createDatabase) {
    throw new CliRefusalError(
      `No database at ${file}. Start the server once (it creates it), point DATABASE_URL at the server's database (a relative path is resolved against the directory the command runs in), or pass --create-database to create an empty one.`,
    );
  }
  environment.stderr.write(
    `Database: ${file ?? config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@')}\n`,
  );
  const store = await openStore(config.databaseUrl, {
    encryptionKey: config.encryptionKey,
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    poolSize: config.databasePoolSize,
    namedStatements: config.databaseNamedStatements,
  });
  try {
    return await work({ config, store, services: createServices(store, clock, config), clock });
  } finally {
    await store.close();
  }
}
