import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The first `<dir>/<relative>` that exists, walking up from `start` (at most 6 levels): files that
 * ship beside the package (`drizzle/`, `openapi/openapi.json`) are found the same way under tsx
 * (from `src/…`) and once built (from `dist/`).
 * @throws {Error} when none exists.
 */
export function findUp(relative: string, start: string): string {
  let dir = start;
  for (let depth = 0; depth < 6; depth += 1) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = resolve(dir, '..');
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`${relative} not found above ${start}`);
}

/** The directory of a module, from its `import.meta.url`. */
export function moduleDir(url: string): string {
  return dirname(fileURLToPath(url));
}
