import { readFileSync } from 'node:fs';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) this summary reads. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
    children?: number[];
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
}

/** Self time of one function or one package. */
export interface ProfileEntry {
  name: string;
  /** Share of the busy samples (idle excluded), percent. */
  selfPercent: number;
}

/**
 * The heaviest functions and packages of a CPU profile, as shares of the time the process was
 * busy: a server profile spans the whole run, baselines and pauses included, when it idles.
 */
export interface ProfileSummary {
  durationSec: number;
  /** Share of all samples the process was idle, percent. */
  idlePercent: number;
  topFunctions: ProfileEntry[];
  topPackages: ProfileEntry[];
  /**
   * The flame graph's widest frames: each function's inclusive share (samples with it anywhere
   * on the stack, counted once per sample), heaviest first.
   */
  topInclusive: ProfileEntry[];
}

/** Where a frame's code comes from: an npm package, the server bundle, node itself, or V8. */
function packageOf(url: string, functionName: string): string {
  const inModules = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(
    url,
  );
  if (inModules?.[1]) return inModules[1];
  if (url.includes('/packages/server/dist/')) return 'switchboard server';
  if (url.startsWith('node:')) return 'node core';
  if (url === '') return functionName.startsWith('(') ? functionName : 'native';
  return url;
}

function top(map: Map<string, number>, total: number, count: number): ProfileEntry[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => ({ name, selfPercent: Math.round((hits / total) * 1000) / 10 }));
}

/** `function file:line` of a frame, the file shortened to its last two path segments. */
function frameName(frame: { functionName: string; url: string; lineNumber: number }): string {
  const file = frame.url.replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '');
  return `${frame.functionName || '(anonymous)'} ${file.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
}

/** Reads a `.cpuprofile` and sums self time by function and by package. */
export function summarizeCpuProfile(path: string, count = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const hitsById = new Map<number, number>();
  for (const sample of profile.samples) hitsById.set(sample, (hitsById.get(sample) ?? 0) + 1);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  let idle = 0;
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  }
  const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
  const inclusive = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = hitsById.get(node.id) ?? 0;
    if (hits === 0) continue;
    const { functionName, url } = node.callFrame;
    if (functionName === '(idle)') {
      idle += hits;
      continue;
    }
    total += hits;
    const name = frameName(node.callFrame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
    const onStack = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const frame = nodeById.get(id)?.callFrame;
      if (frame && frame.functionName !== '(root)') onStack.add(frameName(frame));
    }
    for (const frame of onStack) inclusive.set(frame, (inclusive.get(frame) ?? 0) + hits);
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
  }
  return {
    durationSec: Math.round((profile.endTime - profile.startTime) / 1e5) / 10,
    idlePercent: Math.round((idle / Math.max(1, idle + total)) * 1000) / 10,
    topFunctions: top(byFunction, total, count),
    topPackages: top(byPackage, total, count),
    topInclusive: top(inclusive, total, count),
  };
}
