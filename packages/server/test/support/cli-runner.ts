import { runCli } from '../../src/cli/run-cli';

/** What one CLI run printed and how it ended. */
export interface CliRun {
  /** The exit code. */
  code: number;
  /** Everything written to stdout. */
  stdout: string;
  /** Everything written to stderr. */
  stderr: string;
}

/**
 * Runs the `switchboard` CLI in-process with `env` (and `stdin`, for prompts) and captures its
 * output. Tests work on fresh database files, so `--create-database` is given unless `strict`.
 */
export async function cli(
  args: string[],
  env: Record<string, string>,
  stdin?: NodeJS.ReadableStream,
  strict = false,
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(strict ? args : ['--create-database', ...args], {
    env,
    ...(stdin ? { stdin } : {}),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}
