// Stages the built console for `pnpm pack`: the server serves `console/dist/` (found by walking up
// from dist/), which the console package builds in the workspace; the tarball carries its own
// copy. `--remove` deletes the copy again after packing (decision 0561).
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const staged = join(packageDir, 'console');
if (process.argv.includes('--remove')) {
  rmSync(staged, { recursive: true, force: true });
} else {
  const built = join(packageDir, '..', 'console', 'dist');
  if (!existsSync(join(built, 'index.html'))) {
    throw new Error('packages/console/dist is missing: pnpm --filter @switchboard/console build');
  }
  cpSync(built, join(staged, 'dist'), { recursive: true });
}
