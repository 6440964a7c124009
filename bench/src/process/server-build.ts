import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, SERVER_DIR, SERVER_MAIN } from '../paths';

/** The sources a server build is made from; a newer file than the build makes it stale. */
const BUILD_INPUTS = [
  join(SERVER_DIR, 'src'),
  join(SERVER_DIR, 'drizzle'),
  join(SERVER_DIR, 'package.json'),
  join(SERVER_DIR, 'tsup.config.ts'),
  join(REPO_ROOT, 'packages', 'contract', 'src'),
];

function newestModification(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    newest = Math.max(newest, newestModification(join(path, entry)));
  }
  return newest;
}

/** True when `dist/main.js` is missing or older than a source file it is built from. */
export function serverBuildIsStale(): boolean {
  if (!existsSync(SERVER_MAIN)) return true;
  const built = statSync(SERVER_MAIN).mtimeMs;
  return BUILD_INPUTS.some((input) => existsSync(input) && newestModification(input) > built);
}

/**
 * Builds the server (`pnpm --filter @switchboard/server build`) unless its build is current, so
 * the benchmark always measures the code in the working tree.
 * @throws {Error} with the build output when the build fails.
 */
export function ensureServerBuilt(log: (line: string) => void): void {
  if (!serverBuildIsStale()) return;
  log('building the server (dist/ missing or older than its sources)…');
  const result = spawnSync('pnpm', ['--filter', '@switchboard/server', 'build'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`server build failed:\n${result.stdout}\n${result.stderr}`);
  }
}
