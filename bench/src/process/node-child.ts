import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths';

/** How to start a Node.js child process. */
export interface NodeChildOptions {
  /** A label for error messages. */
  name: string;
  /** The entry point: a built `.js` file, or a `.ts` file run through tsx. */
  script: string;
  /** Arguments after the script. */
  args?: readonly string[];
  /** Options for node itself (`--cpu-prof`…). */
  nodeArgs?: readonly string[];
  /** The whole environment of the child (nothing is inherited but PATH and HOME). */
  env: Record<string, string>;
  /** Opens an IPC channel (`process.send` in the child). */
  ipc?: boolean;
}

/** Keeps only the tail of a child's output, for error messages. */
const OUTPUT_TAIL_CHARS = 4000;

/** A Node.js process started by the harness, with its output tail and exit tracked. */
export class NodeChild {
  readonly child: ChildProcess;
  readonly name: string;
  /** Settles with the exit code (null when killed by a signal) once the process has exited. */
  readonly exited: Promise<number | null>;
  #output = '';
  #exitCode: number | null | undefined;

  private constructor(options: NodeChildOptions) {
    this.name = options.name;
    const typescript = options.script.endsWith('.ts');
    const nodeArgs = [...(options.nodeArgs ?? []), ...(typescript ? ['--import', 'tsx'] : [])];
    this.child = spawn(process.execPath, [...nodeArgs, options.script, ...(options.args ?? [])], {
      // tsx is resolved from the bench package; the server resolves its own dependencies.
      cwd: join(REPO_ROOT, 'bench'),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.#output = (this.#output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = new Promise((resolveExit) => {
      this.child.once('exit', (code) => {
        this.#exitCode = code;
        resolveExit(code);
      });
    });
  }

  /** Starts a child process. */
  static spawn(options: NodeChildOptions): NodeChild {
    return new NodeChild(options);
  }

  /** The process id. */
  get pid(): number {
    const { pid } = this.child;
    if (pid === undefined) throw new Error(`${this.name} did not start`);
    return pid;
  }

  /** True once the process has exited. */
  get hasExited(): boolean {
    return this.#exitCode !== undefined;
  }

  /** The last few thousand characters the process printed. */
  get outputTail(): string {
    return this.#output;
  }

  /**
   * Asks the process to stop (SIGTERM, so a server shuts down gracefully and a CPU profile gets
   * written) and waits; SIGKILL after `timeoutMs`.
   */
  async stop(timeoutMs = 15_000): Promise<number | null> {
    if (this.hasExited) return this.#exitCode ?? null;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** One GET on a fresh connection: the status code, or undefined when it could not connect. */
function probe(url: string): Promise<number | undefined> {
  return new Promise((resolveStatus) => {
    const req = request(url, { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      resolveStatus(res.statusCode);
    });
    req.once('error', () => resolveStatus(undefined));
    req.once('timeout', () => req.destroy());
    req.end();
  });
}

/**
 * Polls `url` every `intervalMs` until it answers 200, and returns how long that took since
 * `startedAt` (a `performance.now()` value). Throws when the child exits first or on timeout.
 */
export async function waitForHttpOk(
  url: string,
  child: NodeChild,
  options: { startedAt: number; timeoutMs?: number; intervalMs?: number },
): Promise<number> {
  const deadline = options.startedAt + (options.timeoutMs ?? 30_000);
  const interval = options.intervalMs ?? 5;
  while (performance.now() < deadline) {
    if (child.hasExited) {
      throw new Error(`${child.name} exited before answering ${url}:\n${child.outputTail}`);
    }
    if ((await probe(url)) === 200) return performance.now() - options.startedAt;
    await new Promise((wake) => setTimeout(wake, interval));
  }
  throw new Error(`${child.name} did not answer ${url} in time:\n${child.outputTail}`);
}

/**
 * Starts a child that serves HTTP on 127.0.0.1:`port` and waits until its `/health` answers 200;
 * stops it when it never does. Returns the child and its base URL.
 */
export async function spawnHttpChild(
  options: NodeChildOptions,
  port: number,
): Promise<{ child: NodeChild; url: string }> {
  const child = NodeChild.spawn(options);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttpOk(`${url}/health`, child, { startedAt: performance.now() });
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { child, url };
}

/** Whether a TCP connection to 127.0.0.1:`port` is accepted. */
function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolveOpen) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolveOpen(true);
    });
    socket.once('error', () => resolveOpen(false));
  });
}

/**
 * Polls until 127.0.0.1:`port` accepts connections, and returns how long that took since
 * `startedAt`; NaN when the child exits first or on timeout. A server can accept connections
 * well before it answers requests (its event loop busy with start-up work).
 */
export async function waitForPortOpen(
  port: number,
  child: NodeChild,
  options: { startedAt: number; timeoutMs?: number; intervalMs?: number },
): Promise<number> {
  const deadline = options.startedAt + (options.timeoutMs ?? 30_000);
  while (performance.now() < deadline && !child.hasExited) {
    if (await portAccepts(port)) return performance.now() - options.startedAt;
    await new Promise((wake) => setTimeout(wake, options.intervalMs ?? 2));
  }
  return Number.NaN;
}
