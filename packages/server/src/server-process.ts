import type { FastifyInstance } from 'fastify';
import { type BuildAppOverrides, buildApp, startWorkers } from './app';
import type { Config } from './config';
import { applyHeapGrowth } from './heap-growth';
import { claimServerLock, StartupError } from './server-lock';
import { isPostgresUrl } from './store/open-store';

/** True for a SQLite file (not PostgreSQL, not an in-memory database). */
function usesLockFile(databaseUrl: string): boolean {
  return !isPostgresUrl(databaseUrl) && !databaseUrl.startsWith(':memory:');
}

/** The one-line reason a bind failed, for the operator. */
function listenError(error: unknown, config: Config): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new StartupError(
      `port ${config.port} is in use on ${config.host}: stop what uses it, or set PORT`,
    );
  }
  if (code === 'EACCES') {
    return new StartupError(`port ${config.port} needs privileges: set PORT to 1024 or above`);
  }
  if (code === 'EADDRNOTAVAIL') {
    return new StartupError(`${config.host} is not an address of this machine: set HOST`);
  }
  return error;
}

/**
 * Starts the server and shuts it down gracefully on SIGTERM or SIGINT: stop accepting
 * connections, let in-flight requests finish, stop the workers, close the database, exit 0. A
 * second signal, or a shutdown slower than `SHUTDOWN_TIMEOUT_MS`, exits 1 at once. `overrides`
 * replaces the adapters (the `fake:whatsapp` manual tool runs Baileys on a fake WhatsApp).
 */
export async function runServer(
  config: Config,
  overrides: Pick<BuildAppOverrides, 'providerRegistry'> = {},
): Promise<FastifyInstance> {
  applyHeapGrowth(config.heapGrowingPercent);
  // Configuration is loaded; then the database (one server per SQLite file), its migrations, the
  // port, and only then recovery, workers and providers: a start that fails touches nothing.
  const lock = usesLockFile(config.databaseUrl) ? claimServerLock(config.databaseUrl) : undefined;
  let app: FastifyInstance;
  try {
    app = await buildApp(config, {
      ...overrides,
      startWorkers: false,
      ...(lock ? { onClosed: () => lock.release() } : {}),
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  // Signals are handled from before the port is bound: a signal that arrives while it binds (a
  // supervisor stopping a server that just logged it is listening) still shuts down cleanly.
  let shuttingDown = false;
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    if (shuttingDown) {
      app.log.warn({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timed out: exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    try {
      await app.close();
      app.log.info('shutdown complete');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', (signal) => void shutdown(signal));
  process.on('SIGINT', (signal) => void shutdown(signal));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    throw listenError(error, config);
  }
  // Holding the SQLite lock, this is the only server on the database.
  await startWorkers(app, { exclusive: lock !== undefined });
  if (config.webhookAllowPrivateUrls) {
    app.log.warn(
      'WEBHOOK_ALLOW_PRIVATE_URLS is on: webhooks, callback URLs and media URLs may reach http and private addresses (this machine, its network, cloud metadata). Development only: never on a server others can reach',
    );
  }
  app.log.info(
    {
      database: config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@'),
      publicBaseUrl: config.publicBaseUrl,
      adminApi: config.adminToken ? 'enabled' : 'disabled (SWITCHBOARD_ADMIN_TOKEN unset)',
    },
    'Switchboard ready',
  );

  return app;
}
