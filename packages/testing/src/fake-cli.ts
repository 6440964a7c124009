import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { resolveServerUrl } from '@switchboard/contract';

/** A fake upstream that a manual-trial command runs until it is interrupted. */
interface StoppableFake {
  /** Closes the fake's server. */
  stop(): Promise<void>;
}

/** Stops `fake` and exits on Ctrl-C or SIGTERM: the end of every `pnpm fake:*` command. */
export function stopOnSignal(fake: StoppableFake): void {
  const stop = async () => {
    await fake.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The options every `pnpm fake:*` command has besides its own. */
const COMMON_OPTIONS = {
  url: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The usage line of the common options. */
const COMMON_USAGE = `  --url <url>   the Switchboard server the printed requests go to (default: SWITCHBOARD_URL,
                else PUBLIC_BASE_URL, else http://HOST:PORT, from the environment or .env)
  -h, --help    print this help`;

/** What a `pnpm fake:*` command was asked for. */
export interface FakeArgs {
  /** Each option's value (every option of a fake takes a string), its default when not given. */
  values: Record<string, string | undefined>;
  /** The Switchboard server: `--url`, else the rule every tool follows (`resolveServerUrl`). */
  serverUrl: string;
}

/**
 * The arguments of a `pnpm fake:*` command (`defaults`: each option and its default), with `--url`
 * and `--help` added: `--help` prints `usage` and exits 0, an unknown or malformed option prints
 * the problem and `usage` and exits 2 (no stack trace). The `.env` where the command was run
 * (`INIT_CWD` under pnpm) is read first, the environment winning, as the server and the CLI do.
 */
export function parseFakeArgs(
  usage: string,
  defaults: Record<string, string | undefined>,
  argv: string[] = process.argv.slice(2),
): FakeArgs {
  const envFile = join(process.env.INIT_CWD ?? process.cwd(), '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  const help = `${usage}\n${COMMON_USAGE}\n`;
  const options: NonNullable<ParseArgsConfig['options']> = { ...COMMON_OPTIONS };
  for (const [name, value] of Object.entries(defaults)) {
    options[name] = value === undefined ? { type: 'string' } : { type: 'string', default: value };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${help}`);
    process.exit(2);
  }
  if (parsed.values.help) {
    process.stdout.write(help);
    process.exit(0);
  }
  const values: Record<string, string | undefined> = {};
  for (const name of Object.keys(defaults)) {
    const value = parsed.values[name];
    values[name] = typeof value === 'string' ? value : undefined;
  }
  const url = typeof parsed.values.url === 'string' ? parsed.values.url : undefined;
  return { values, serverUrl: resolveServerUrl(process.env, url) };
}
