import { availableParallelism } from 'node:os';
import { MediaConverter } from './media-converter';
import { locateMediaTools, type MediaToolsLookup, type MediaToolsStatus } from './media-tools';

/** The converter, or why there is none. */
export type ConverterAvailability =
  | { available: true; converter: MediaConverter }
  | { available: false; reason: string };

/** Settings of the conversion pool. */
export interface MediaEngineOptions extends MediaToolsLookup {
  /** Jobs at once; 0 means one per core. */
  concurrency: number;
  /** Longest a conversion may run. */
  timeoutMs: number;
}

/**
 * The gateway's one conversion pool: FFmpeg found once (on first use, or at start to log and
 * report it), then every probe and conversion of outbound and inbound media shares its limits.
 */
export class MediaEngine {
  readonly #options: MediaEngineOptions;
  #availability: Promise<ConverterAvailability> | undefined;
  #status: MediaToolsStatus | undefined;

  /** An engine that looks for FFmpeg as `options` say. */
  constructor(options: MediaEngineOptions) {
    this.#options = options;
  }

  /** The pool's concurrency, cores resolved. */
  get concurrency(): number {
    return this.#options.concurrency > 0 ? this.#options.concurrency : availableParallelism();
  }

  /** The converter, found (once) on first call. */
  converter(): Promise<ConverterAvailability> {
    this.#availability ??= locateMediaTools(this.#options).then((status) => {
      this.#status = status;
      return status.available
        ? {
            available: true,
            converter: new MediaConverter(status.tools, {
              concurrency: this.concurrency,
              timeoutMs: this.#options.timeoutMs,
            }),
          }
        : { available: false, reason: status.reason };
    });
    return this.#availability;
  }

  /** What was found: the binaries and their version, or why conversion is unavailable. */
  async status(): Promise<MediaToolsStatus> {
    await this.converter();
    return this.#status as MediaToolsStatus;
  }
}
