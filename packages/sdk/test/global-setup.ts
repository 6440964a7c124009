import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the contract and the SDK once before any test file runs: the packaging, release and
 * other-runtime tests use `dist/`, what ships, and two files building it side by side would race.
 */
export default function setup(): void {
  const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
  for (const dir of [join(packageDir, '..', 'contract'), packageDir]) {
    execFileSync('pnpm', ['run', 'build'], { cwd: dir, stdio: 'pipe' });
  }
}
