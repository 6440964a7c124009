import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) this summary reads. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
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
  /**
   * Self time by original source: the npm package, or the server's own file (`server src/…`),
   * read from the bundle's source maps; frames without a map count by package as above.
   */
  topSources: ProfileEntry[];
  /** {@link topSources}, inclusive: samples with the source anywhere on the stack. */
  topSourcesInclusive: ProfileEntry[];
}

/** Package and server source names of a bundled frame, through the bundle's `.map` files. */
class SourceNames {
  readonly #consumers = new Map<string, SourceMapConsumer | null>();

  /** The original source of `frame`, or undefined when its file has no source map. */
  of(frame: { url: string; lineNumber: number; columnNumber: number }): string | undefined {
    if (!frame.url.startsWith('file://')) return undefined;
    const file = fileURLToPath(frame.url);
    const consumer = this.#consumer(file);
    if (!consumer) return undefined;
    const { source } = consumer.originalPositionFor({
      line: frame.lineNumber + 1,
      column: frame.columnNumber,
    });
    if (!source) return undefined;
    const inModules = packageInPath(source);
    if (inModules) return inModules;
    // The bundle sits in <package>/dist: the server's own files, and the workspace packages
    // bundled into it, named by their path from the packages folder.
    const packageRoot = resolve(dirname(file), '..');
    const path = relative(packageRoot, resolve(dirname(file), source));
    return path.startsWith('../') ? path.slice(3) : `server ${path}`;
  }

  #consumer(file: string): SourceMapConsumer | null {
    let consumer = this.#consumers.get(file);
    if (consumer === undefined) {
      const map = `${file}.map`;
      consumer = existsSync(map)
        ? new SourceMapConsumer(JSON.parse(readFileSync(map, 'utf8')))
        : null;
      this.#consumers.set(file, consumer);
    }
    return consumer;
  }
}

/**
 * The npm package a path lies in, if any. In pnpm's store the directory under `.pnpm` names it
 * (`@scope+name@version_peers`): a package's own source map can point above its folder (drizzle's
 * `../src/…`), so the folder after it is not always the package.
 */
function packageInPath(path: string): string | undefined {
  const store = /node_modules\/\.pnpm\/((?:@[^/@]+\+)?[^/@]+)@/.exec(path)?.[1];
  if (store) return store.replace('+', '/');
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
}

/** Where a frame's code comes from: an npm package, the server bundle, node itself, or V8. */
function packageOf(url: string, functionName: string): string {
  const inModules = packageInPath(url);
  if (inModules) return inModules;
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
  const sources = new SourceNames();
  const sourceById = new Map<number, string>();
  const sourceOf = (id: number, frame: CpuProfile['nodes'][number]['callFrame']): string => {
    let name = sourceById.get(id);
    if (name === undefined) {
      name = sources.of(frame) ?? packageOf(frame.url, frame.functionName);
      sourceById.set(id, name);
    }
    return name;
  };
  const bySource = new Map<string, number>();
  const bySourceInclusive = new Map<string, number>();
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
    const sourcesOnStack = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const frame = nodeById.get(id)?.callFrame;
      if (!frame || frame.functionName === '(root)') continue;
      onStack.add(frameName(frame));
      sourcesOnStack.add(sourceOf(id, frame));
    }
    for (const frame of onStack) inclusive.set(frame, (inclusive.get(frame) ?? 0) + hits);
    const source = sourceOf(node.id, node.callFrame);
    bySource.set(source, (bySource.get(source) ?? 0) + hits);
    for (const name of sourcesOnStack) {
      bySourceInclusive.set(name, (bySourceInclusive.get(name) ?? 0) + hits);
    }
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
  }
  return {
    durationSec: Math.round((profile.endTime - profile.startTime) / 1e5) / 10,
    idlePercent: Math.round((idle / Math.max(1, idle + total)) * 1000) / 10,
    topFunctions: top(byFunction, total, count),
    topPackages: top(byPackage, total, count),
    topInclusive: top(inclusive, total, count),
    topSources: top(bySource, total, count),
    topSourcesInclusive: top(bySourceInclusive, total, count),
  };
}
