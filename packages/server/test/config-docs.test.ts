import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig } from '../src/config';

/** The repository root (the docs and the README live there). */
const REPO_ROOT = new URL('../../../', import.meta.url);

function read(path: string): string {
  return readFileSync(new URL(path, REPO_ROOT), 'utf8');
}

/** The text after the line `start` up to the next `end` (which must exist). */
function section(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  expect(from, `"${start}" not found`).toBeGreaterThanOrEqual(0);
  const to = text.indexOf(end, from + start.length);
  expect(to, `"${end}" not found after "${start}"`).toBeGreaterThan(from);
  return text.slice(from + start.length, to);
}

/** The variables a Markdown table names in its first column (`` | `PORT` | … ``), sorted. */
function tableVariables(markdown: string): string[] {
  return [...markdown.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)]
    .map((match) => match[1] ?? '')
    .sort();
}

const EXPECTED = [...CONFIG_VARIABLES].sort();

describe('the configuration tables', () => {
  it('docs/operators.md lists exactly the variables the server reads', () => {
    const table = section(read('docs/operators.md'), '## Configuration', '\n## ');
    expect(tableVariables(table)).toEqual(EXPECTED);
  });

  it('the README lists exactly the variables the server reads', () => {
    const table = section(
      read('README.md'),
      '<!-- config-table:start -->',
      '<!-- config-table:end -->',
    );
    expect(tableVariables(table)).toEqual(EXPECTED);
  });
});

/** The settings of the tools (not the server's) that `.env.example` lists too. */
const TOOL_VARIABLES = ['SWITCHBOARD_API_KEY', 'SWITCHBOARD_URL'];

describe('.env.example', () => {
  const text = read('.env.example');
  /** `NAME=value` lines, and `# NAME=…` lines (a setting without a default). */
  const set = new Map(
    [...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [
      match[1] ?? '',
      match[2] ?? '',
    ]),
  );
  const commented = [...text.matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1] ?? '');

  it('lists every setting the server reads, and the tools’, once', () => {
    const names = [...set.keys(), ...commented];
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual([...EXPECTED, ...TOOL_VARIABLES].sort());
  });

  it('gives each setting its default: the file alone configures what no file does', () => {
    const baseDir = '/srv/switchboard';
    expect(loadConfig(Object.fromEntries(set), { baseDir })).toEqual(loadConfig({}, { baseDir }));
    // A setting without a default is left commented out, not set to a value of the example's.
    for (const name of commented) expect(set.has(name), name).toBe(false);
  });
});
