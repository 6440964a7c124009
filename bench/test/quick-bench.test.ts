import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchReport } from '../src/report/results-writer';
import { SCENARIOS } from '../src/scenarios/registry';

const benchDir = join(import.meta.dirname, '..');
const outDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-'));

/** Runs `tsx src/main.ts --quick` as `pnpm bench --quick` does, and returns its exit code. */
function runQuickBench(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', '--quick', `--out=${outDir}`],
      { cwd: benchDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('exit', (code) => resolveRun({ code, output }));
  });
}

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

// A smoke test of the harness, not of speed: every scenario runs against the real built server
// and reports numbers. Nothing here depends on how fast this machine is.
describe('pnpm bench --quick', () => {
  it('runs every scenario and reports finite figures for each', async () => {
    const { code, output } = await runQuickBench();
    expect(code, output).toBe(0);
    const report = JSON.parse(readFileSync(join(outDir, 'latest.json'), 'utf8')) as BenchReport;
    expect(report.mode).toBe('quick');
    expect(report.scenarios.map((scenario) => scenario.id)).toEqual(SCENARIOS.map((s) => s.id));
    for (const scenario of report.scenarios) {
      expect(scenario.status, `${scenario.id}: ${scenario.reason ?? ''}`).toBe('ok');
      expect(scenario.metrics.length).toBeGreaterThan(0);
      // Every scenario states what its work cost the server in CPU, not only how fast it went.
      expect(
        scenario.metrics.some((figure) => figure.name.startsWith('server CPU')),
        `${scenario.id} reports server CPU`,
      ).toBe(true);
      for (const figure of scenario.metrics) {
        expect(Number.isFinite(figure.value), `${scenario.id} ${figure.name}`).toBe(true);
      }
    }
    // The end-to-end scenario's floor ran the same bursts to completion beside the server.
    const endToEnd = report.scenarios.find((scenario) => scenario.id === 'end-to-end');
    const floorCpu = endToEnd?.metrics.find(
      (figure) => figure.name === 'floor: CPU per fully delivered message',
    );
    expect(floorCpu?.value).toBeGreaterThan(0);
    expect(endToEnd?.notes.join(' ')).not.toMatch(/did not finish delivering/);
    const markdown = readFileSync(join(outDir, 'latest.md'), 'utf8');
    for (const scenario of SCENARIOS) expect(markdown).toContain(`## ${scenario.title}`);
  });
});
