import { runCli } from './cli/run-cli';

// The `switchboard` command: operator tasks on the configured database, or `serve`.
process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
