import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { Config } from './config';

/**
 * Starts the server and shuts it down gracefully on SIGTERM or SIGINT: stop accepting
 * connections, let in-flight requests finish, stop the workers, close the database, exit 0. A
 * second signal, or a shutdown slower than `SHUTDOWN_TIMEOUT_MS`, exits 1 at once.
 */
export async function runServer(config: Config): Promise<FastifyInstance> {
  const app = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      database: config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@'),
      publicBaseUrl: config.publicBaseUrl,
      adminApi: config.adminToken ? 'enabled' : 'disabled (SWITCHBOARD_ADMIN_TOKEN unset)',
    },
    'Switchboard ready',
  );

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
  return app;
}
