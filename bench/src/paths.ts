import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The monorepo root. */
export const REPO_ROOT = resolve(here, '..', '..');

/** The server package, whose build the harness starts. */
export const SERVER_DIR = join(REPO_ROOT, 'packages', 'server');

/** The built server entry point (`pnpm --filter @switchboard/server build`). */
export const SERVER_MAIN = join(SERVER_DIR, 'dist', 'main.js');

/** Where the committed results of a full run go. */
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');

/** Scratch space of a run (git-ignored): databases, quick-mode results, CPU profiles. */
export const SCRATCH_DIR = join(RESULTS_DIR, 'tmp');

/** The harness's own source folder, where the child programs (baselines, receiver) live. */
export const BENCH_SRC_DIR = here;
