// Stages the API document for `pnpm pack`: the server serves `openapi/openapi.json` (found by
// walking up from dist/), which lives at the workspace root; the tarball carries its own copy.
// `--remove` deletes the copy again after packing, so the workspace keeps one document.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const staged = join(packageDir, 'openapi');
if (process.argv.includes('--remove')) {
  rmSync(staged, { recursive: true, force: true });
} else {
  mkdirSync(staged, { recursive: true });
  copyFileSync(
    join(packageDir, '..', '..', 'openapi', 'openapi.json'),
    join(staged, 'openapi.json'),
  );
}
