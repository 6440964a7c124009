/**
 * Generates `docs/errors.md` from the error-code registry.
 *   --write  writes the file
 *   --check  fails (exit 1) when the committed file differs from a fresh generation
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderErrorDocs } from '../src/error-docs';

const target = resolve(import.meta.dirname, '../../../docs/errors.md');
const generated = renderErrorDocs();

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // a missing file is stale too
  }
  if (committed !== generated) {
    console.error(
      'docs/errors.md is stale: run `pnpm --filter @switchboard/contract docs:errors`.',
    );
    process.exit(1);
  }
  console.log('docs/errors.md is up to date.');
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${target}`);
}
