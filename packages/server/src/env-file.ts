import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Fills `env` from the `.env` file in `dir`, when there is one: `KEY=value` lines (Node's own
 * parser: quotes, `#` comments, `export` prefixes). A variable already set in the environment
 * wins over the file, so a deployment can always override what a checked-out `.env` says.
 * @returns the file read, or undefined when there is none.
 */
export function loadEnvFile(
  env: Record<string, string | undefined>,
  dir: string,
): string | undefined {
  const path = join(dir, '.env');
  if (!existsSync(path)) return undefined;
  for (const [key, value] of Object.entries(parseEnv(readFileSync(path, 'utf8')))) {
    if (env[key] === undefined) env[key] = value;
  }
  return path;
}
