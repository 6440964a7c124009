import type { ProviderLogger } from '@switchboard/provider-kit';

/**
 * A logger whose destination is attached later: the inbound handlers are built with the services,
 * before the app's logger exists. Lines logged before {@link attach} are dropped (no provider
 * emits before the app starts them).
 */
export class ForwardingLogger implements ProviderLogger {
  #target: ProviderLogger | undefined;

  /** Sends every later line to `target`. */
  attach(target: ProviderLogger): void {
    this.#target = target;
  }

  /** Logs at debug level. */
  debug(details: Record<string, unknown>, message: string): void {
    this.#target?.debug(details, message);
  }

  /** Logs at info level. */
  info(details: Record<string, unknown>, message: string): void {
    this.#target?.info(details, message);
  }

  /** Logs at warn level. */
  warn(details: Record<string, unknown>, message: string): void {
    this.#target?.warn(details, message);
  }

  /** Logs at error level. */
  error(details: Record<string, unknown>, message: string): void {
    this.#target?.error(details, message);
  }
}
