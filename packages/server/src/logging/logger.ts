import type { IncomingMessage } from 'node:http';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { Config } from '../config';

/** Log paths whose values never reach a log line: credentials in headers, bodies and config. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.authorization',
  '*.apiKey',
  '*.key',
  '*.secret',
  '*.token',
  '*.password',
  '*.adminToken',
];

/** Query parameters that are credentials (signed attachment URLs). */
const SECRET_QUERY_PARAMS = /([?&](?:signature|token|key)=)[^&]*/gi;

/** The request as logged: method and URL (with signed-URL secrets masked), never headers or body. */
function serializeRequest(request: { method?: string; url?: string; raw?: IncomingMessage }) {
  return {
    method: request.method,
    url: request.url?.replace(SECRET_QUERY_PARAMS, '$1[redacted]'),
  };
}

/**
 * The structured JSON logger. Message bodies are never logged at info level or above; API keys,
 * webhook secrets and the admin token are redacted wherever they appear under a known name.
 */
export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'switchboard' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest },
  };
  return destination ? pino(options, destination) : pino(options);
}
