import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metric, ScenarioResult } from '../scenarios/scenario-result';
import type { MachineInfo } from './machine-info';

/** Everything one run produced; written as `latest.json`. */
export interface BenchReport {
  generatedAt: string;
  mode: 'full' | 'quick';
  rounds: number;
  machine: MachineInfo;
  elapsedSec: number;
  scenarios: ScenarioResult[];
}

function targetText(item: Metric): string {
  return item.target ? `${item.target.op} ${item.target.value}` : '';
}

function metText(item: Metric): string {
  if (item.met === undefined) return '';
  return item.met ? 'met' : '**missed**';
}

function table(
  columns: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): string {
  const line = (cells: ReadonlyArray<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(columns), line(columns.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Renders the report as markdown: one section per scenario, headline figures first. */
export function renderMarkdown(report: BenchReport): string {
  const { machine } = report;
  const parts = [
    '# Switchboard benchmark results',
    '',
    `Generated ${report.generatedAt} by \`pnpm bench${report.mode === 'quick' ? ' --quick' : ''}\` in ${report.elapsedSec} s (${report.rounds} round(s) per scenario, medians). Commit ${machine.gitCommit} (plus the working tree).`,
    '',
    `Machine: ${machine.cores} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Linux ${machine.kernel}, Node.js ${machine.node}; load average ${machine.loadAverageAtStart} at start. Server, baselines and load generator share these cores; compare ratios, not absolute figures.`,
    '',
    '## Summary',
    '',
    table(
      ['scenario', 'status', 'figure', 'value', 'target', ''],
      report.scenarios.flatMap((scenario) =>
        scenario.status === 'ok'
          ? scenario.metrics
              .filter((item) => item.target)
              .map((item) => [
                scenario.title,
                'ok',
                item.name,
                `${item.value} ${item.unit}`,
                targetText(item),
                metText(item),
              ])
          : [[scenario.title, scenario.status, scenario.reason ?? '', '', '', '']],
      ),
    ),
  ];
  for (const scenario of report.scenarios) {
    parts.push('', `## ${scenario.title}`, '');
    if (scenario.status !== 'ok') {
      parts.push(`**${scenario.status}**: ${scenario.reason ?? ''}`);
      continue;
    }
    parts.push(
      table(
        ['figure', 'value', 'target', ''],
        scenario.metrics.map((item) => [
          item.name,
          `${item.value} ${item.unit}`,
          targetText(item),
          metText(item),
        ]),
      ),
    );
    for (const detail of scenario.details) {
      parts.push('', `${detail.title}:`, '', table(detail.columns, detail.rows));
    }
    if (scenario.notes.length > 0) {
      parts.push('', ...scenario.notes.map((note) => `- ${note}`));
    }
    parts.push('', `(${scenario.elapsedSec} s)`);
  }
  return `${parts.join('\n')}\n`;
}

/** Writes `latest.json` and `latest.md` into `dir`. */
export function writeReport(dir: string, report: BenchReport): { json: string; markdown: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'latest.json');
  const markdown = join(dir, 'latest.md');
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(markdown, renderMarkdown(report));
  return { json, markdown };
}
