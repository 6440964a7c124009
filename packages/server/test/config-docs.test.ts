import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../src/config';

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
