/**
 * `pnpm bench [--quick] [--only=<id,…>] [--profile] [--out=<dir>]`: builds the server when its
 * build is stale, runs every scenario against the real server in its own process with each
 * scenario's baseline in the same run, and writes `latest.md` and `latest.json`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EndpointNotAvailableError } from './api/api-client';
import { type BenchMode, FULL_MODE, QUICK_MODE, type ScenarioContext } from './bench-mode';
import { RESULTS_DIR, SCRATCH_DIR } from './paths';
import { ensureServerBuilt } from './process/server-build';
import { machineInfo } from './report/machine-info';
import { type BenchReport, writeReport } from './report/results-writer';
import { SCENARIOS } from './scenarios/registry';
import type { ScenarioResult } from './scenarios/scenario-result';
import { BenchFixtures } from './seed/bench-fixtures';

interface CliOptions {
  mode: BenchMode;
  only: string[] | undefined;
  profile: boolean;
  outDir: string;
}

function parseArgs(argv: readonly string[]): CliOptions {
  const quick = argv.includes('--quick');
  const value = (name: string) =>
    argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const unknown = argv.filter(
    (arg) => arg !== '--' && !/^--(quick|profile|only=.+|out=.+)$/.test(arg),
  );
  if (unknown.length > 0) {
    throw new Error(
      `unknown arguments: ${unknown.join(' ')} (use --quick, --only=<ids>, --profile, --out=<dir>)`,
    );
  }
  return {
    mode: quick ? QUICK_MODE : FULL_MODE,
    only: value('only')?.split(','),
    profile: argv.includes('--profile'),
    // A quick run is a smoke test: it never overwrites the committed results.
    outDir: value('out') ?? (quick ? join(SCRATCH_DIR, 'quick') : RESULTS_DIR),
  };
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const machine = machineInfo();
  ensureServerBuilt(log);
  mkdirSync(SCRATCH_DIR, { recursive: true });
  const runDir = mkdtempSync(join(SCRATCH_DIR, 'run-'));
  const profileDir = options.profile ? join(SCRATCH_DIR, 'profiles') : undefined;
  const fixtures = new BenchFixtures(runDir);
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of SCENARIOS) {
      if (options.only && !options.only.includes(scenario.id)) continue;
      log(`${scenario.title}…`);
      const scenarioStarted = performance.now();
      const workDir = join(runDir, scenario.id);
      mkdirSync(workDir, { recursive: true });
      const context: ScenarioContext = {
        mode: options.mode,
        fixtures,
        workDir,
        log,
        ...(profileDir ? { profileDir } : {}),
      };
      let outcome: Omit<ScenarioResult, 'elapsedSec'>;
      try {
        outcome = await scenario.run(context);
      } catch (error) {
        const notAvailable = error instanceof EndpointNotAvailableError;
        log(`  ${notAvailable ? 'not available' : 'FAILED'}: ${(error as Error).stack ?? error}`);
        outcome = {
          id: scenario.id,
          title: scenario.title,
          status: notAvailable ? 'not-available' : 'error',
          reason: (error as Error).message,
          metrics: [],
          details: [],
          notes: [],
        };
      }
      const elapsedSec = Math.round((performance.now() - scenarioStarted) / 100) / 10;
      results.push({ ...outcome, elapsedSec });
      log(`  done in ${elapsedSec} s`);
    }
  } finally {
    // Databases of a run are large (the growth scenario's is ~1 GB): never keep them.
    rmSync(runDir, { recursive: true, force: true });
  }
  const report: BenchReport = {
    generatedAt: new Date().toISOString(),
    mode: options.mode.quick ? 'quick' : 'full',
    rounds: options.mode.rounds,
    machine,
    elapsedSec: Math.round((performance.now() - started) / 1000),
    scenarios: results,
  };
  const written = writeReport(options.outDir, report);
  log(`results: ${written.markdown}, ${written.json}`);
  return results.some((result) => result.status === 'error') ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  log(`bench failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
}
