import { runCli } from './cli/run-cli';
import { loadEnvFile } from './env-file';

// `.env` beside where the command runs; the environment wins over it.
loadEnvFile(process.env, process.env.INIT_CWD ?? process.cwd());

// The `switchboard` command: operator tasks on the configured database, or `serve`.
process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
