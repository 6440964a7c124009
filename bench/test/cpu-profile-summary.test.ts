import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SourceMapGenerator } from 'source-map-js';
import { afterAll, describe, expect, it } from 'vitest';
import { summarizeCpuProfile } from '../src/report/cpu-profile-summary';

const root = mkdtempSync(join(tmpdir(), 'profile-summary-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A bundle in <root>/server/dist whose lines 1–3 come from the server, drizzle and contract. */
function bundle(): string {
  const dist = join(root, 'server', 'dist');
  mkdirSync(dist, { recursive: true });
  const file = join(dist, 'chunk.js');
  writeFileSync(file, 'a();\nb();\nc();\n');
  const map = new SourceMapGenerator({ file: 'chunk.js' });
  const sources = [
    '../src/store/sqlite-store.ts',
    // A package whose own map points above its folder, as drizzle's does.
    '../../../node_modules/.pnpm/drizzle-orm@0.45.4_pg@8.23.1/node_modules/src/session.ts',
    '../../contract/src/events.ts',
  ];
  sources.forEach((source, line) => {
    map.addMapping({
      generated: { line: line + 1, column: 0 },
      original: { line: 1, column: 0 },
      source,
    });
  });
  writeFileSync(`${file}.map`, map.toString());
  return pathToFileURL(file).href;
}

describe('summarizeCpuProfile', () => {
  it('names bundled frames by their original source, self and inclusive, idle excluded', () => {
    const url = bundle();
    const frame = (functionName: string, lineNumber: number) => ({
      functionName,
      url,
      lineNumber,
      columnNumber: 0,
    });
    const profile = {
      nodes: [
        {
          id: 1,
          callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 },
          children: [2, 3, 5, 6],
        },
        { id: 2, callFrame: { functionName: '(idle)', url: '', lineNumber: -1, columnNumber: -1 } },
        { id: 3, callFrame: frame('flush', 0), children: [4] },
        { id: 4, callFrame: frame('values', 1) },
        {
          id: 5,
          callFrame: { functionName: 'runMicrotasks', url: '', lineNumber: -1, columnNumber: -1 },
        },
        { id: 6, callFrame: frame('serialize', 2) },
      ],
      startTime: 0,
      endTime: 1_000_000,
      samples: [2, 2, 3, 3, 3, 4, 4, 5, 6, 6],
    };
    const path = join(root, 'run.cpuprofile');
    writeFileSync(path, JSON.stringify(profile));

    const summary = summarizeCpuProfile(path);

    expect(summary.idlePercent).toBe(20);
    expect(summary.topSources).toEqual([
      { name: 'server src/store/sqlite-store.ts', selfPercent: 37.5 },
      { name: 'drizzle-orm', selfPercent: 25 },
      { name: 'contract/src/events.ts', selfPercent: 25 },
      { name: 'native', selfPercent: 12.5 },
    ]);
    expect(summary.topSourcesInclusive[0]).toEqual({
      name: 'server src/store/sqlite-store.ts',
      selfPercent: 62.5,
    });
    expect(summary.topSourcesInclusive).toContainEqual({ name: 'drizzle-orm', selfPercent: 25 });
  });
});
