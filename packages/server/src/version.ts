import { readFileSync } from 'node:fs';
import { findUp, moduleDir } from './find-up';

/** The server package's version (`package.json`, found beside `src/` or `dist/`). */
export function serverVersion(): string {
  const path = findUp('package.json', moduleDir(import.meta.url));
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}
