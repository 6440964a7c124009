import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { type MediaProbe, PROBE_ARGS, parseProbe } from './media-probe';
import type { MediaProfile } from './media-profiles';
import type { MediaTools } from './media-tools';

/** Why a file could not be probed or converted, in words fit for a message's `errorMessage`. */
export class MediaConversionError extends Error {
  override readonly name = 'MediaConversionError';
}

/** Limits of the conversion pool. */
export interface MediaConverterOptions {
  /** Jobs (probes and conversions) running at once; the rest wait their turn. */
  concurrency: number;
  /** Longest a conversion may run before its process is killed. */
  timeoutMs: number;
}

/**
 * Runs a conversion below the server's priority (nice 10), so the process that accepts requests
 * keeps its share of the CPU while conversions fill the rest.
 */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, CONVERSION_NICENESS);
  } catch {
    // Not permitted here (or the process already ended): it runs at the default priority.
  }
}

/** The niceness conversions run at. */
const CONVERSION_NICENESS = 10;

/** How long a probe may take: it reads headers, not the whole file. */
const PROBE_TIMEOUT_MS = 20_000;

/** The most of a failed process's error output kept for the reason. */
const STDERR_KEPT = 2000;

/**
 * Runs FFmpeg and ffprobe as separate processes in a bounded pool: at most `concurrency` at once
 * (one per core by default), each conversion killed after `timeoutMs` and refused when its output
 * would pass the caller's byte cap (FFmpeg's `-fs` stops writing there). Input and output go
 * through a private temporary directory, removed after each job, so seeking formats (MP4 with its
 * index at the end) work.
 */
export class MediaConverter {
  readonly #tools: MediaTools;
  readonly #options: MediaConverterOptions;
  readonly #queue: PQueue;

  /** A pool running `tools` within `options`. */
  constructor(tools: MediaTools, options: MediaConverterOptions) {
    this.#tools = tools;
    this.#options = options;
    this.#queue = new PQueue({ concurrency: options.concurrency });
  }

  /** Jobs running and waiting. */
  get load(): { running: number; waiting: number } {
    return { running: this.#queue.pending, waiting: this.#queue.size };
  }

  /**
   * The container and streams of `data`.
   * @throws {MediaConversionError} when ffprobe cannot read it.
   */
  probe(data: Uint8Array): Promise<MediaProbe> {
    return this.#job(data, async (input) => {
      const { stdout } = await this.#exec(
        this.#tools.ffprobe,
        [...PROBE_ARGS, input],
        PROBE_TIMEOUT_MS,
        'probe',
      );
      try {
        return parseProbe(stdout);
      } catch {
        throw new MediaConversionError('the file could not be read as audio or video');
      }
    });
  }

  /**
   * `data` converted by `profile`, at most `maxOutputBytes` long.
   * @throws {MediaConversionError} on a timeout, an unreadable input or an output over the cap.
   */
  convert(data: Uint8Array, profile: MediaProfile, maxOutputBytes: number): Promise<Uint8Array> {
    return this.#job(data, async (input, dir) => {
      const output = join(dir, `output.${profile.extension}`);
      await this.#exec(
        this.#tools.ffmpeg,
        [
          '-hide_banner',
          '-nostdin',
          '-loglevel',
          'error',
          '-y',
          '-i',
          input,
          // One core per job: the pool's size is what bounds the CPU conversions take.
          '-threads',
          '1',
          ...profile.args,
          // One byte over the cap tells "too large" apart from "exactly the cap".
          '-fs',
          String(maxOutputBytes + 1),
          output,
        ],
        this.#options.timeoutMs,
        'conversion',
      );
      const size = (await stat(output)).size;
      if (size > maxOutputBytes) {
        throw new MediaConversionError(
          `the converted file would be larger than the ${maxOutputBytes}-byte limit`,
        );
      }
      return new Uint8Array(await readFile(output));
    });
  }

  /** Runs `work` in the pool with `data` written to a private temporary file. */
  async #job<T>(data: Uint8Array, work: (input: string, dir: string) => Promise<T>): Promise<T> {
    return this.#queue.add(
      async () => {
        const dir = await mkdtemp(join(tmpdir(), 'switchboard-media-'));
        try {
          const input = join(dir, 'input');
          await writeFile(input, data, { mode: 0o600 });
          return await work(input, dir);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
      { throwOnTimeout: true },
    );
  }

  /** Runs a binary to completion within `timeoutMs` (killed after it), keeping its output. */
  #exec(
    binary: string,
    args: string[],
    timeoutMs: number,
    what: 'probe' | 'conversion',
  ): Promise<{ stdout: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      lowerPriority(child.pid);
      const stdout: Buffer[] = [];
      let stderr = '';
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8');
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new MediaConversionError(`the encoder could not be started (${error.message})`));
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (timedOut) {
          reject(
            new MediaConversionError(
              `the ${what} did not finish within ${Number((timeoutMs / 1000).toFixed(1))} s`,
            ),
          );
        } else if (code !== 0) {
          const detail = stderr.trim().split('\n').at(-1)?.slice(0, 300);
          reject(
            new MediaConversionError(
              `the file could not be ${what === 'probe' ? 'read' : 'converted'}${detail ? ` (${detail})` : ''}`,
            ),
          );
        } else {
          resolve({ stdout: Buffer.concat(stdout).toString('utf8') });
        }
      });
    });
  }
}
