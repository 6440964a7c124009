#!/usr/bin/env node
// `pnpm typecheck`: type-checks every workspace package in a few TypeScript programs instead of
// one a package. Each package's own tsconfig.json stays the source of what is checked and how;
// packages whose compiler options are the same share one program, so the contract's (zod's and
// ts-rest's) types are checked once for all of them instead of once each (~4 min → ~1 min on two
// cores; docs/testing.md). The programs run side by side; any error fails the run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve as resolvePath } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
/**
 * Packages checked in a program of their own. The server augments Fastify's types
 * (`declare module 'fastify'`), which must not reach the other packages that use Fastify.
 */
const ALONE = new Set(['packages/server']);

const packages = ['packages', 'examples']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => `${group}/${name}`))
  .concat('bench')
  .filter((dir) => existsSync(join(root, dir, 'tsconfig.json')));

/** Programs by key: the packages' own compiler options, or the package itself when alone. */
const programs = new Map();
for (const dir of packages) {
  const config = JSON.parse(readFileSync(join(root, dir, 'tsconfig.json'), 'utf8'));
  if (resolvePath(root, dir, config.extends ?? '') !== join(root, 'tsconfig.base.json')) {
    throw new Error(`${dir}/tsconfig.json must extend the root tsconfig.base.json`);
  }
  const key = ALONE.has(dir) ? dir : JSON.stringify(config.compilerOptions ?? {});
  const program = programs.get(key) ?? {
    dirs: [],
    compilerOptions: config.compilerOptions ?? {},
    include: [],
  };
  program.dirs.push(dir);
  program.include.push(...config.include.map((pattern) => join(root, dir, pattern)));
  programs.set(key, program);
}

const cache = join(root, 'node_modules/.cache/switchboard-typecheck');
mkdirSync(cache, { recursive: true });
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');

const runs = [...programs.values()].map((program, index) => {
  const file = join(cache, `tsconfig.${index}.json`);
  const { compilerOptions, include } = program;
  writeFileSync(
    file,
    JSON.stringify({ extends: join(root, 'tsconfig.base.json'), compilerOptions, include }),
  );
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '--noEmit', '-p', file], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const label = program.dirs.join(', ');
      console.log(`${code === 0 ? 'ok' : 'FAILED'}: ${label}`);
      if (output) console.log(output.trimEnd());
      resolve(code === 0);
    });
  });
});
process.exit((await Promise.all(runs)).every(Boolean) ? 0 : 1);
