import { ConfigError, loadConfig } from './config';
import { loadEnvFile } from './env-file';
import { StartupError } from './server-lock';
import { runServer } from './server-process';

// The server's entry point: configuration from the environment, then listen until a signal.
try {
  // `.env` beside where the server was started from; the environment wins over it.
  loadEnvFile(process.env, process.env.INIT_CWD ?? process.cwd());
  await runServer(loadConfig(process.env));
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else if (error instanceof StartupError) {
    process.stderr.write(`Switchboard could not start: ${error.message}\n`);
  } else {
    process.stderr.write(`Switchboard failed to start: ${(error as Error).stack ?? error}\n`);
  }
  process.exit(1);
}
