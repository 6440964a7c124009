import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system) a process has used, in clock ticks (1/100 s on Linux); with
 * `children`, also that of its children it has waited for (FFmpeg runs, for instance).
 */
function cpuTicks(pid: number, children = false): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces: utime,
    // stime, cutime and cstime are the 14th to 17th fields of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return children ? own + Number(fields[13]) + Number(fields[14]) : own;
  } catch {
    return undefined;
  }
}

/**
 * CPU time (user + system) a process has used so far, in seconds, from `/proc/<pid>/stat`: a cost
 * that does not depend on how busy the machine is, unlike a rate. With `children`, the CPU of the
 * child processes it has reaped is added (counted once each child has exited).
 * @throws {Error} when the process is gone.
 */
export function cpuSeconds(pid: number, options: { children?: boolean } = {}): number {
  const ticks = cpuTicks(pid, options.children);
  if (ticks === undefined) throw new Error(`no CPU figures for process ${pid}`);
  return ticks / 100;
}

/**
 * CPU time (user + system) a process has used so far, in seconds, or 0 once it is gone (for
 * processes that may exit while they are measured, such as PostgreSQL's backends).
 */
export function cpuSecondsOrZero(pid: number): number {
  return (cpuTicks(pid) ?? 0) / 100;
}

/**
 * Waits until a process is (nearly) idle: under `maxCpuPercent` of one core over a window. Used
 * between measurements, so the background work one run leaves behind (the simulator finishing
 * the lifecycle of accepted sends, webhook deliveries) does not steal CPU from the next run.
 * Returns how long it waited, in milliseconds.
 */
export async function waitForCpuIdle(
  pid: number,
  options: { maxCpuPercent?: number; windowMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const maxPercent = options.maxCpuPercent ?? 5;
  const windowMs = options.windowMs ?? 300;
  const started = performance.now();
  const deadline = started + (options.timeoutMs ?? 30_000);
  while (performance.now() < deadline) {
    const before = cpuTicks(pid);
    await new Promise((wake) => setTimeout(wake, windowMs));
    const after = cpuTicks(pid);
    if (before === undefined || after === undefined) break;
    const percent = ((after - before) * 10 * 100) / windowMs;
    if (percent <= maxPercent) break;
  }
  return performance.now() - started;
}
