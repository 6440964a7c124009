import type { ProviderLogger } from '@switchboard/provider-kit';
import type { BaileysLogger } from './baileys-socket';

/**
 * Baileys' logger interface over the instance's logger. Baileys is chatty: its trace and debug
 * lines go to debug, and its info lines too (one per received frame), so an operator's info log
 * stays about Switchboard's own decisions.
 */
export function baileysLogger(
  logger: ProviderLogger,
  bindings: Record<string, unknown> = {},
): BaileysLogger {
  const details = (obj: unknown): Record<string, unknown> =>
    obj !== null && typeof obj === 'object'
      ? { ...bindings, ...(obj as Record<string, unknown>) }
      : { ...bindings, detail: obj };
  const message = (obj: unknown, msg?: string): string =>
    msg ?? (typeof obj === 'string' ? obj : 'baileys');
  return {
    level: 'debug',
    child: (obj: Record<string, unknown>) => baileysLogger(logger, { ...bindings, ...obj }),
    trace: (obj: unknown, msg?: string) => logger.debug(details(obj), message(obj, msg)),
    debug: (obj: unknown, msg?: string) => logger.debug(details(obj), message(obj, msg)),
    info: (obj: unknown, msg?: string) => logger.debug(details(obj), message(obj, msg)),
    warn: (obj: unknown, msg?: string) => logger.warn(details(obj), message(obj, msg)),
    error: (obj: unknown, msg?: string) => logger.error(details(obj), message(obj, msg)),
  };
}
