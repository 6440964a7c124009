import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { REPO_ROOT } from '../paths';

/** The machine and code a run measured. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  /** Load average (1 min) when the run started: other work sharing the machine. */
  loadAverageAtStart: number;
  /** The commit the working tree is based on (the tree may have uncommitted changes). */
  gitCommit: string;
}

/** Describes this machine for the report. */
export function machineInfo(): MachineInfo {
  let gitCommit = 'unknown';
  try {
    gitCommit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).trim();
  } catch {
    // Not a git checkout: leave it unknown.
  }
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model ?? 'unknown',
    cores: processors.length,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    kernel: release(),
    node: process.version,
    loadAverageAtStart: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    gitCommit,
  };
}
