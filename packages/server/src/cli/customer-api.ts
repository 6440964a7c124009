import { resolveServerUrl } from '@switchboard/contract';
import { type Command, Option } from 'commander';
import type { CliEnvironment } from './cli-context';
import { CliRefusalError } from './cli-refusal-error';

/** The options of the commands that act as a customer over HTTP (`listen`, `whatsapp pair`). */
export interface CustomerApiOptions {
  /** `--api-key`. */
  apiKey?: string;
  /** `--url`. */
  url?: string;
  /** `--base-url`: the older name of `--url`, still accepted. */
  baseUrl?: string;
}

/** Where and as whom a customer command talks to the server. */
export interface CustomerApi {
  /** The server's base URL, without a trailing slash. */
  baseUrl: string;
  /** The customer API key. */
  apiKey: string;
}

/** What `--url` says when it is left out: the rule of {@link resolveServerUrl}. */
const SERVER_URL_DEFAULT_HELP =
  'default: SWITCHBOARD_URL, else PUBLIC_BASE_URL, else http://HOST:PORT, from the environment or .env';

/** Adds `--api-key` and `--url` (and the older `--base-url`) to a command. */
export function withCustomerApiOptions(command: Command): Command {
  return command
    .option('--api-key <key>', 'the customer API key (default: SWITCHBOARD_API_KEY)')
    .option('--url <url>', `the Switchboard server (${SERVER_URL_DEFAULT_HELP})`)
    .addOption(new Option('--base-url <url>').hideHelp());
}

/**
 * The server and key a customer command uses: the options, else `SWITCHBOARD_API_KEY`, and the
 * server by the one rule every tool follows ({@link resolveServerUrl}).
 * @throws {CliRefusalError} without a key.
 */
export function customerApiOf(
  options: CustomerApiOptions,
  environment: CliEnvironment,
): CustomerApi {
  const apiKey = options.apiKey ?? environment.env.SWITCHBOARD_API_KEY;
  if (!apiKey) {
    throw new CliRefusalError(
      'this command needs a customer API key: --api-key sk_… or SWITCHBOARD_API_KEY',
    );
  }
  return { apiKey, baseUrl: resolveServerUrl(environment.env, options.url ?? options.baseUrl) };
}

/** Aborts on Ctrl-C or SIGTERM (long-running commands end cleanly). */
export function interruptSignal(environment: CliEnvironment): AbortSignal {
  if (environment.signal) return environment.signal;
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return controller.signal;
}
