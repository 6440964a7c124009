import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPacked, type PackedProject } from '@switchboard/testing';

const sdkDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const contractDir = resolve(sdkDir, '../contract');
const workspaceDir = resolve(sdkDir, '../..');
const resolveModule = createRequire(import.meta.url).resolve;
const tsc = resolveModule('typescript/bin/tsc');

/** The `attw` command of the SDK's @arethetypeswrong/cli, runnable with `node`. */
export const attw = (() => {
  const manifest = resolveModule('@arethetypeswrong/cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { attw: string } };
  return resolve(dirname(manifest), bin.attw);
})();

/** The published client packages a consumer project can install, by short name. */
export type PackedPackage = 'contract' | 'sdk';

const packageDirs: Record<PackedPackage, string> = { contract: contractDir, sdk: sdkDir };

/** A project with one packed package installed alone, which type-checks consumers of it. */
export interface ConsumerProject extends PackedProject {
  /** Type-checks (and emits unless `noEmit`) `files` with the given compiler options. */
  typeCheck(name: string, options: Readonly<Record<string, unknown>>, files: string[]): void;
}

/** The package's peer dependencies, at the exact versions the workspace develops it with. */
function peersOf(packed: PackedPackage): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(packageDirs[packed], 'package.json'), 'utf8')) as {
    peerDependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  return Object.fromEntries(
    Object.keys(manifest.peerDependencies ?? {}).map((name) => [
      name,
      manifest.devDependencies?.[name] ?? '',
    ]),
  );
}

/**
 * Packs one package (both are built by the suite's global setup) and installs its tarball alone, with its peers as an application adds them, in a new project.
 */
export async function createConsumerProject(packed: PackedPackage): Promise<ConsumerProject> {
  const project = await installPacked({
    packageDir: packageDirs[packed],
    workspaceDir,
    dependencies: peersOf(packed),
  });
  return {
    ...project,
    typeCheck: (name, options, files) => {
      const config = join(project.dir, `tsconfig.${name}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: {
            strict: true,
            target: 'ES2022',
            lib: ['ES2023', 'DOM'],
            types: [],
            outDir: `out-${name}`,
            ...options,
          },
          files,
        }),
      );
      project.run(process.execPath, [tsc, '-p', config]);
    },
  };
}
