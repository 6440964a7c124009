import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server package's root directory. */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The output and exit code of a finished child process. */
export interface ProcessResult {
  /** Exit code (null when killed by a signal). */
  code: number | null;
  /** Everything written to stdout. */
  stdout: string;
  /** Everything written to stderr. */
  stderr: string;
}

/**
 * Starts a TypeScript entry point of the server (`src/main.ts`, `src/cli.ts`) under tsx in a
 * child process, with `env` added to a minimal environment.
 */
export function spawnEntry(
  entry: string,
  args: string[],
  env: Record<string, string>,
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(PACKAGE_ROOT, entry), ...args], {
    cwd: PACKAGE_ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves with the output once the child exits. */
export function completion(child: ChildProcess): Promise<ProcessResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs an entry point to completion. */
export function runEntry(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<ProcessResult> {
  return completion(spawnEntry(entry, args, env));
}

/** Resolves with the port a server child logged once it listens; rejects if it exits first. */
export function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(buffer);
      if (match?.[1]) {
        child.stdout?.off('data', onData);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}: ${buffer}`)));
  });
}

/**
 * Resolves when a server child has finished starting (recovery run, workers started): the
 * "Switchboard ready" line, logged after "Server listening". Call it before that line can appear.
 */
export function serverReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      if (buffer.includes('Switchboard ready')) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}: ${buffer}`)));
  });
}
