import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const sdkDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const contractDir = resolve(sdkDir, '../contract');
const workspaceDir = resolve(sdkDir, '../..');
const resolveModule = createRequire(import.meta.url).resolve;
const tsc = resolveModule('typescript/bin/tsc');
const execFileAsync = promisify(execFile);

/** The `attw` command of the SDK's @arethetypeswrong/cli, runnable with `node`. */
export const attw = (() => {
  const manifest = resolveModule('@arethetypeswrong/cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { attw: string } };
  return resolve(dirname(manifest), bin.attw);
})();

/** The published packages the consumer project installs, by short name. */
export type PackedPackage = 'contract' | 'sdk';

/** A project outside the workspace with the packed contract and SDK installed from tarballs. */
export interface ConsumerProject {
  /** The project's directory (a fresh temporary directory). */
  readonly dir: string;
  /** The absolute path of each package's tarball. */
  readonly tarballs: Readonly<Record<PackedPackage, string>>;
  /** Writes a file into the project. */
  write(file: string, content: string): void;
  /** Runs a command in the project and returns its stdout; a failure reports stdout and stderr. */
  run(command: string, args: readonly string[]): string;
  /** Type-checks (and emits unless `noEmit`) `files` with the given compiler options. */
  typeCheck(name: string, options: Readonly<Record<string, unknown>>, files: string[]): void;
  /** Deletes the project. */
  remove(): void;
}

/** The output of a failed child process, so a failing step shows the compiler's diagnostics. */
function describeFailure(command: string, args: readonly string[], error: unknown): Error {
  const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
  return new Error(`${command} ${args.join(' ')} failed:\n${stdout}${stderr}`, { cause: error });
}

function run(command: string, args: readonly string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    throw describeFailure(command, args, error);
  }
}

async function runAsync(command: string, args: readonly string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, { cwd, encoding: 'utf8' });
    return stdout;
  } catch (error) {
    throw describeFailure(command, args, error);
  }
}

/** Packs a package as `pnpm publish` would (publishConfig applied, `workspace:` replaced). */
async function pack(dir: string, destination: string): Promise<string> {
  const output = await runAsync('pnpm', ['pack', '--json', '--pack-destination', destination], dir);
  const { filename } = JSON.parse(output) as { filename: string };
  return resolve(destination, filename);
}

/**
 * Builds the contract and the SDK (nothing is prebuilt on a fresh clone), packs both, and installs
 * the tarballs in a new temporary project.
 */
export async function createConsumerProject(): Promise<ConsumerProject> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-sdk-consumer-'));
  try {
    // The two declaration builds are independent (the SDK's reads the contract's source), so they
    // run side by side; together they are most of this setup's time.
    const [storeDir] = await Promise.all([
      runAsync('pnpm', ['store', 'path'], workspaceDir),
      runAsync('pnpm', ['run', 'build'], contractDir),
      runAsync('pnpm', ['run', 'build'], sdkDir),
    ]);
    const [contract, sdk] = await Promise.all([pack(contractDir, dir), pack(sdkDir, dir)]);
    const { packageManager } = JSON.parse(
      readFileSync(join(workspaceDir, 'package.json'), 'utf8'),
    ) as { packageManager: string };
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'sdk-consumer',
        private: true,
        type: 'module',
        // The workspace's pnpm, so corepack does not look up (and fail to verify) the latest one.
        packageManager,
        dependencies: {
          '@switchboard/sdk': `file:${sdk}`,
          '@switchboard/contract': `file:${contract}`,
        },
        // The SDK depends on the contract's version, which is not published: use the tarball.
        pnpm: { overrides: { '@switchboard/contract': `file:${contract}` } },
      }),
    );
    run(
      'pnpm',
      [
        'install',
        // Every dependency is already in the workspace's store; only registry metadata missing
        // from the local cache (a fresh CI machine) is fetched.
        '--prefer-offline',
        `--store-dir=${storeDir.trim()}`,
        // There is no lockfile to freeze; pnpm defaults to a frozen one when CI is set.
        '--no-frozen-lockfile',
        // @anatine/zod-openapi's peer openapi3-ts is only used by its own types, which the
        // contract's declarations never reach; installing it would need a download.
        '--config.auto-install-peers=false',
      ],
      dir,
    );
    return {
      dir,
      tarballs: { contract, sdk },
      write: (file, content) => writeFileSync(join(dir, file), content),
      run: (command, args) => run(command, args, dir),
      typeCheck: (name, options, files) => {
        const config = join(dir, `tsconfig.${name}.json`);
        writeFileSync(
          config,
          JSON.stringify({
            compilerOptions: {
              strict: true,
              target: 'ES2022',
              lib: ['ES2023', 'DOM'],
              types: [],
              // ts-rest's own declarations need it (the workspace sets it too).
              skipLibCheck: true,
              outDir: `out-${name}`,
              ...options,
            },
            files,
          }),
        );
        run(process.execPath, [tsc, '-p', config], dir);
      },
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
