import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findUp } from '../../src/find-up';

/** `docs/decisions/`: one file per decision and the index, `README.md`. */
const DECISIONS = dirname(findUp('docs/decisions/README.md', __dirname));

/** `NNNN-kebab-title.md`. */
const FILE_NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
/** The statuses a decision can have; a superseded one names its successor. */
const STATUS = /^- Status: (?:accepted|proposed|deprecated|rejected|superseded by (\d{4}))\b/m;
const AREA = /^- Area: (\S.*)$/m;
/** An index line: `- [NNNN. Title](NNNN-title.md)`, optionally followed by a note. */
const INDEX_LINE = /^- \[(\d{4})\. [^\]]+\]\((\d{4}-[^)]+\.md)\)/;

/**
 * Every way the decision folder can be wrong: a file missing from the index, an index line naming
 * a missing file, a file without its title, Status, Area or sections, a successor that does not
 * exist, a relative link that leads nowhere.
 */
function problemsIn(dir: string): string[] {
  const problems: string[] = [];
  const files = readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'README.md');
  const index = readFileSync(join(dir, 'README.md'), 'utf8');

  const listed = new Map<string, string>();
  let area: string | undefined;
  for (const line of index.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) area = heading[1]?.trim();
    const entry = INDEX_LINE.exec(line);
    if (!entry) continue;
    const [, number, file] = entry;
    if (!file || !number) continue;
    if (!file.startsWith(`${number}-`))
      problems.push(`index: ${line} links a file of another number`);
    if (!existsSync(join(dir, file))) problems.push(`index: ${file} does not exist`);
    if (listed.has(file)) problems.push(`index: ${file} is listed twice`);
    listed.set(file, area ?? '');
  }

  const numbers = new Map<string, string>();
  for (const file of files) {
    const name = FILE_NAME.exec(file);
    if (!name?.[1]) {
      problems.push(`${file}: the name is not NNNN-kebab-title.md`);
      continue;
    }
    const number = name[1];
    const other = numbers.get(number);
    if (other) problems.push(`${file}: number ${number} is also ${other}`);
    numbers.set(number, file);

    const text = readFileSync(join(dir, file), 'utf8');
    if (!text.startsWith(`# ${number}. `))
      problems.push(`${file}: the first line is not "# ${number}. Title"`);
    const status = STATUS.exec(text);
    if (!status) problems.push(`${file}: no "- Status: accepted | superseded by NNNN" line`);
    const successor = status?.[1];
    if (successor && !files.some((f) => f.startsWith(`${successor}-`))) {
      problems.push(`${file}: superseded by ${successor}, which does not exist`);
    }
    const fileArea = AREA.exec(text)?.[1]?.trim();
    if (!fileArea) problems.push(`${file}: no "- Area: …" line`);
    let from = 0;
    for (const section of ['## Context', '## Decision', '## Consequences']) {
      const at = text.indexOf(`\n${section}\n`, from);
      if (at < 0) problems.push(`${file}: no "${section}" section (after the ones before it)`);
      else from = at + section.length;
    }
    for (const [, target] of text.matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (target && !existsSync(join(dir, target)))
        problems.push(`${file}: links ${target}, which does not exist`);
    }

    const indexArea = listed.get(file);
    if (indexArea === undefined) problems.push(`${file}: missing from README.md`);
    else if (fileArea && indexArea !== fileArea) {
      problems.push(`${file}: Area is "${fileArea}" but README.md lists it under "${indexArea}"`);
    }
  }
  return problems;
}

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of `docs/` (decisions link the guides beside them) whose decisions are broken on purpose. */
function copyOfDecisions(): string {
  const dir = mkdtempSync(join(tmpdir(), 'decisions-'));
  scratch.push(dir);
  cpSync(dirname(DECISIONS), join(dir, 'docs'), { recursive: true });
  return join(dir, 'docs', 'decisions');
}

describe('docs/decisions/', () => {
  it('indexes every decision file, links no missing file, and every file has its title, Status, Area and sections', () => {
    expect(problemsIn(DECISIONS)).toEqual([]);
  });

  it('keeps the old log as a pointer to the index', () => {
    const pointer = readFileSync(join(DECISIONS, '..', 'decisions.md'), 'utf8');
    expect(pointer).toContain('decisions/README.md');
  });

  it('reports a file missing from the index, an index line without its file, and a file without its Area', () => {
    const dir = mkdtempSync(join(tmpdir(), 'decisions-'));
    scratch.push(dir);
    const shape = (number: string, area: string) =>
      `# ${number}. A decision\n\n- Status: accepted (2026-12-02)\n${area}\n\n## Context\nc\n\n## Decision\nd\n\n## Consequences\ne\n`;
    writeFileSync(join(dir, '0400-listed.md'), shape('0400', '- Area: webhooks'));
    writeFileSync(join(dir, '0401-unlisted.md'), shape('0401', '- Area: webhooks'));
    writeFileSync(join(dir, '0402-no-area.md'), shape('0402', ''));
    writeFileSync(
      join(dir, 'README.md'),
      '# Decisions\n\n## webhooks\n\n- [0400. A decision](0400-listed.md)\n- [0402. A decision](0402-no-area.md)\n- [0403. Gone](0403-gone.md)\n',
    );
    expect(problemsIn(dir)).toEqual([
      'index: 0403-gone.md does not exist',
      '0401-unlisted.md: missing from README.md',
      '0402-no-area.md: no "- Area: …" line',
    ]);
  });

  it('reports a decision without its sections, a wrong area in the index and a successor that does not exist', () => {
    const dir = copyOfDecisions();
    const [first] = readdirSync(dir)
      .filter((name) => FILE_NAME.test(name))
      .sort();
    if (!first) throw new Error('no decision files');
    const text = readFileSync(join(dir, first), 'utf8');
    writeFileSync(
      join(dir, first),
      text
        .replace('\n## Consequences\n', '\n')
        .replace(/^- Status: .*$/m, '- Status: superseded by 0999')
        .replace(/^- Area: .*$/m, '- Area: somewhere else'),
    );
    expect(problemsIn(dir)).toEqual([
      `${first}: superseded by 0999, which does not exist`,
      `${first}: no "## Consequences" section (after the ones before it)`,
      expect.stringMatching(
        new RegExp(`^${first}: Area is "somewhere else" but README.md lists it under`),
      ),
    ]);
  });
});
