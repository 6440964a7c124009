import { readFileSync } from 'node:fs';

/**
 * Bytes a process has handed to storage so far (`write_bytes` of `/proc/<pid>/io`: every write
 * to a file, counted when made, whether or not the page cache later merges it), across all its
 * threads. For a SQLite server this is the WAL frames its commits append plus what its
 * checkpoints copy back: a cost of each commit's dirty pages that does not depend on how busy
 * the machine is. Undefined where the kernel does not keep I/O accounting.
 */
export function bytesWritten(pid: number): number | undefined {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const line = io.split('\n').find((entry) => entry.startsWith('write_bytes:'));
    return line === undefined ? undefined : Number(line.slice('write_bytes:'.length));
  } catch {
    return undefined;
  }
}
