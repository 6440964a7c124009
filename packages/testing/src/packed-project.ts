import { execFile, execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A project outside the workspace with one packed package installed from its tarball alone. */
export interface PackedProject {
  /** The project's directory (a fresh temporary directory). */
  readonly dir: string;
  /** The absolute path of the package's tarball. */
  readonly tarball: string;
  /** Writes a file into the project. */
  write(file: string, content: string): void;
  /** Runs a command in the project and returns its stdout; a failure reports stdout and stderr. */
  run(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): string;
  /** The names of every package installed in the project (its whole dependency tree). */
  installedPackages(): string[];
  /** Deletes the project. */
  remove(): void;
}

/** Options of {@link installPacked}. */
export interface InstallPackedOptions {
  /** The package to pack (built beforehand). */
  packageDir: string;
  /** The workspace root: its pnpm version and store are used. */
  workspaceDir: string;
  /** Further dependencies of the project, as an application would add (a package's peers). */
  dependencies?: Readonly<Record<string, string>>;
  /** Dependencies whose install scripts may run (pnpm runs none unless allowed). */
  allowBuilds?: readonly string[];
  /**
   * Native addons (in `allowBuilds`) that must load in the Node.js running the test, each with
   * the file node-gyp compiles it to in `build/Release` (`better_sqlite3.node`). The store's
   * cached build is used when it loads; when it was made for another Node.js version (CI runs
   * the suite on two), the workspace's build of the same version is used when it loads, and the
   * addon is built again for this Node.js otherwise.
   */
  nativeAddons?: Readonly<Record<string, string>>;
}

/** The installed directory of a dependency anywhere in a pnpm project's tree. */
function installedDir(project: string, name: string): string | undefined {
  const entry = readdirSync(join(project, 'node_modules', '.pnpm')).find((candidate) =>
    candidate.startsWith(`${name.replace('/', '+')}@`),
  );
  return entry && join(project, 'node_modules', '.pnpm', entry, 'node_modules', name);
}

/**
 * True when an addon's compiled module loads in this Node.js. Requiring the package is not
 * enough: addons load their binary lazily.
 */
function loads(binary: string): boolean {
  if (!existsSync(binary)) return false;
  try {
    execFileSync(process.execPath, ['-e', `require(${JSON.stringify(binary)})`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** The version in a package directory's manifest. */
function versionIn(packageDir: string): string | undefined {
  const manifest = join(packageDir, 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
}

/**
 * Puts the workspace's own build of the same addon version in place when it loads in this
 * Node.js (CI builds the workspace's copy for each Node.js it runs on): the same sources
 * compiled for the same Node.js, without compiling them again. The file is replaced, not
 * written through, since the installed one may be a hard link into the package store.
 */
function copyWorkspaceBuild(
  workspaceDir: string,
  addon: string,
  addonDir: string,
  file: string,
): boolean {
  const workspaceAddon = installedDir(workspaceDir, addon);
  if (workspaceAddon === undefined || versionIn(workspaceAddon) !== versionIn(addonDir)) {
    return false;
  }
  const built = join(workspaceAddon, 'build', 'Release', file);
  if (!loads(built)) return false;
  const binary = join(addonDir, 'build', 'Release', file);
  mkdirSync(dirname(binary), { recursive: true });
  rmSync(binary, { force: true });
  copyFileSync(built, binary);
  return loads(binary);
}

/** The output of a failed child process, so a failing step shows the compiler's diagnostics. */
function describeFailure(command: string, args: readonly string[], error: unknown): Error {
  const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
  return new Error(`${command} ${args.join(' ')} failed:\n${stdout}${stderr}`, { cause: error });
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', env });
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

/**
 * Packs a package as `pnpm publish` would (publishConfig applied, `workspace:` replaced, its
 * `prepack` run) and installs the tarball alone in a new temporary project: every dependency it
 * needs must come from the registry (through the workspace's store, so nothing already fetched is
 * downloaded again).
 */
export async function installPacked(options: InstallPackedOptions): Promise<PackedProject> {
  const name = JSON.parse(readFileSync(join(options.packageDir, 'package.json'), 'utf8')) as {
    name: string;
  };
  const dir = mkdtempSync(join(tmpdir(), `${name.name.replace(/\W+/g, '-')}-consumer-`));
  try {
    const storeDir = await runAsync('pnpm', ['store', 'path'], options.workspaceDir);
    const packed = await runAsync(
      'pnpm',
      ['pack', '--json', '--pack-destination', dir],
      options.packageDir,
    );
    // The JSON report follows whatever the package's prepack script printed.
    const report = packed.slice(packed.startsWith('{') ? 0 : packed.lastIndexOf('\n{') + 1);
    const tarball = resolve(dir, (JSON.parse(report) as { filename: string }).filename);
    const { packageManager } = JSON.parse(
      readFileSync(join(options.workspaceDir, 'package.json'), 'utf8'),
    ) as { packageManager: string };
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        type: 'module',
        // The workspace's pnpm, so corepack does not look up (and fail to verify) the latest one.
        packageManager,
        dependencies: { [name.name]: `file:${tarball}`, ...options.dependencies },
        pnpm: { onlyBuiltDependencies: [...(options.allowBuilds ?? [])] },
      }),
    );
    const install = (extra: readonly string[] = []) =>
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
          // Peers are the project's to add (`dependencies`), as an application would.
          '--config.auto-install-peers=false',
          ...extra,
        ],
        dir,
      );
    install();
    for (const [addon, file] of Object.entries(options.nativeAddons ?? {})) {
      const addonDir = installedDir(dir, addon);
      if (addonDir === undefined) throw new Error(`${addon} is not installed`);
      const binary = join(addonDir, 'build', 'Release', file);
      if (loads(binary)) continue;
      if (copyWorkspaceBuild(options.workspaceDir, addon, addonDir, file)) continue;
      // Built for another Node.js: run the addon's own install script again, against the headers
      // of the Node.js running this (its prefix holds include/node), as `npm rebuild` would.
      run('npm', ['run', '--silent', 'install'], addonDir, {
        ...process.env,
        npm_config_nodedir: resolve(process.execPath, '..', '..'),
      });
      if (!loads(binary)) throw new Error(`${addon} does not load after a rebuild`);
    }
    return {
      dir,
      tarball,
      write: (file, content) => writeFileSync(join(dir, file), content),
      run: (command, args, env) => run(command, args, dir, env),
      installedPackages: () =>
        readdirSync(join(dir, 'node_modules', '.pnpm'))
          .filter((entry) => entry.includes('@'))
          .map((entry) => {
            // `@scope+name@version…` or `name@version…` (a peer suffix follows the version).
            const [first, second] = entry.split('@');
            return (entry.startsWith('@') ? `@${second}` : (first as string)).replace('+', '/');
          })
          .sort(),
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
