/**
 * Generates `openapi/openapi.json` from the contract.
 *   --write  writes the file
 *   --check  fails (exit 1) when the committed file differs from a fresh generation
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOpenApiDocument } from '../src/openapi/document';

const target = resolve(import.meta.dirname, '../../../openapi/openapi.json');
const generated = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // a missing file is stale too
  }
  if (committed !== generated) {
    console.error('openapi/openapi.json is stale: run `pnpm openapi` and commit the result.');
    process.exit(1);
  }
  console.log('openapi/openapi.json is up to date.');
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${target}`);
}
