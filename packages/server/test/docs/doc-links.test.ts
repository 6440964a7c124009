import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The repository root. */
const ROOT = resolve(new URL('../../../../', import.meta.url).pathname);

/** README.md and every Markdown file under docs/. */
function markdownFiles(): string[] {
  const found = [join(ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  walk(join(ROOT, 'docs'));
  return found;
}

/** The relative link targets of a Markdown text (fenced code and inline code left out). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [...prose.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
  return targets.filter((target) => !/^(?:[a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target));
}

describe('the links of README.md and docs/', () => {
  it('finds the relative links of a text, not those in code or to other sites', () => {
    expect(
      relativeLinks(
        'See [a](a.md#x), [b](<dir/b c.md>), [c](https://x.y), [d](#here) and `[e](e.md)`.\n```\n[f](f.md)\n```',
      ),
    ).toEqual(['a.md#x', 'dir/b c.md']);
  });

  it('resolve every relative link to a file or folder of the repository', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const target of relativeLinks(readFileSync(file, 'utf8'))) {
        const path = decodeURIComponent(target.split('#')[0]?.split('?')[0] ?? '');
        if (path === '') continue;
        if (!existsSync(resolve(dirname(file), path))) {
          broken.push(`${relative(ROOT, file)} → ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
