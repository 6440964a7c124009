import type { Command } from 'commander';
import type { CliEnvironment } from './cli-context';
import { CliRefusalError } from './cli-refusal-error';

/** The options of the commands that act as a customer over HTTP (`listen`, `whatsapp pair`). */
export interface CustomerApiOptions {
  /** `--api-key`. */
  apiKey?: string;
  /** `--base-url`. */
  baseUrl?: string;
}

/** Where and as whom a customer command talks to the server. */
export interface CustomerApi {
  /** The server's base URL, without a trailing slash. */
  baseUrl: string;
  /** The customer API key. */
  apiKey: string;
}

/** Adds `--api-key` and `--base-url` to a command. */
export function withCustomerApiOptions(command: Command): Command {
  return command
    .option('--api-key <key>', 'the customer API key (default: SWITCHBOARD_API_KEY)')
    .option(
      '--base-url <url>',
      'the Switchboard server (default: SWITCHBOARD_BASE_URL, else http://127.0.0.1:3000)',
    );
}

/**
 * The server and key a customer command uses: the options, else `SWITCHBOARD_API_KEY` and
 * `SWITCHBOARD_BASE_URL`.
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
  const baseUrl =
    options.baseUrl ?? environment.env.SWITCHBOARD_BASE_URL ?? 'http://127.0.0.1:3000';
  return { apiKey, baseUrl: baseUrl.replace(/\/+$/, '') };
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
