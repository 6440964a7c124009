import { spawn } from 'node:child_process';

/** What an example's entry point printed, and how it ended. */
export interface ExampleRun {
  /** The exit code; null when it was stopped after `until` matched. */
  code: number | null;
  /** stdout and stderr, interleaved. */
  output: string;
}

/**
 * Runs an example's `src/main.ts` as `pnpm start` does (tsx, in the example's directory) with only
 * `env` (and `PATH`) as its environment, until it exits or its output matches `until` (then it is
 * stopped): the way to check what a user sees when they start it.
 * @example await runExample(new URL('..', import.meta.url), [], { SWITCHBOARD_URL: url })
 */
export function runExample(
  exampleDir: URL,
  args: string[],
  env: Record<string, string>,
  until?: RegExp,
): Promise<ExampleRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: exampleDir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (until?.test(output)) child.kill('SIGINT');
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}
