import { readFileSync, writeFileSync } from 'node:fs';

/** Resident memory of a process, from `/proc/<pid>/status`. */
export interface MemorySample {
  /** Resident set size now (VmRSS), bytes. */
  rssBytes: number;
  /** Largest resident set size since start or the last reset (VmHWM), bytes. */
  peakRssBytes: number;
}

function kilobytesField(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match?.[1] ? Number(match[1]) * 1024 : Number.NaN;
}

/** Reads a process's current and peak resident memory; undefined once it has exited. */
export function readMemory(pid: number): MemorySample | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      rssBytes: kilobytesField(status, 'VmRSS'),
      peakRssBytes: kilobytesField(status, 'VmHWM'),
    };
  } catch {
    return undefined;
  }
}

/**
 * Resets a process's peak RSS (VmHWM) to its current RSS, so the next reading is the peak of one
 * measured phase rather than of the whole life of the process (seeding included). Linux allows
 * it for processes we own (`clear_refs` 5); false where it is not available.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Tracks the peak RSS of a process over a phase: the kernel's own high-water mark when it could
 * be reset at the start, and a 100 ms poll of VmRSS as a fallback (and a cross-check).
 */
export class PeakRssWatch {
  readonly #pid: number;
  readonly #kernelPeak: boolean;
  readonly #timer: NodeJS.Timeout;
  #polledPeak = 0;

  /** Starts watching `pid`. */
  constructor(pid: number, intervalMs = 100) {
    this.#pid = pid;
    this.#kernelPeak = resetPeakRss(pid);
    this.#poll();
    this.#timer = setInterval(() => this.#poll(), intervalMs);
    this.#timer.unref();
  }

  #poll(): void {
    const sample = readMemory(this.#pid);
    if (sample && sample.rssBytes > this.#polledPeak) this.#polledPeak = sample.rssBytes;
  }

  /** Stops watching and returns the peak RSS of the phase, in bytes. */
  stop(): number {
    clearInterval(this.#timer);
    this.#poll();
    const kernel = this.#kernelPeak ? (readMemory(this.#pid)?.peakRssBytes ?? 0) : 0;
    return Math.max(kernel, this.#polledPeak);
  }
}
