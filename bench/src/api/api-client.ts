import { request } from 'undici';

/** An API answer: status and the parsed JSON body (the envelope, or whatever the route sends). */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** Thrown when an answer is not the one the harness needs; the message carries the body. */
export class UnexpectedAnswerError extends Error {
  override name = 'UnexpectedAnswerError';

  /** Creates the error for one request and its answer. */
  constructor(
    readonly what: string,
    readonly answer: ApiAnswer,
  ) {
    super(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
  }
}

/** Sends one JSON request with a bearer token and reads the JSON answer. */
export async function apiRequest(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  options: { token: string; body?: unknown },
): Promise<ApiAnswer> {
  const response = await request(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${options.token}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.body.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: keep the text for the error message.
  }
  return { status: response.statusCode, body };
}

/**
 * Sends a request that must succeed with `expectedStatus`, and returns the envelope's `data`.
 * @throws {UnexpectedAnswerError} on any other answer.
 */
export async function apiData<T>(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  options: { token: string; body?: unknown; expectedStatus: number },
): Promise<T> {
  const answer = await apiRequest(baseUrl, method, path, options);
  if (answer.status !== options.expectedStatus) {
    throw new UnexpectedAnswerError(`${method} ${path}`, answer);
  }
  return (answer.body as { data: T }).data;
}

/** Thrown when a route the scenario needs answers 501: that part of the API is not built yet. */
export class EndpointNotAvailableError extends Error {
  override name = 'EndpointNotAvailableError';
}

/**
 * Throws {@link EndpointNotAvailableError} when an answer is 501 `NOT_IMPLEMENTED`, so the
 * scenario is reported "not available" instead of failing.
 */
export function assertImplemented(what: string, answer: ApiAnswer): void {
  if (answer.status === 501)
    throw new EndpointNotAvailableError(`${what} answers 501 NOT_IMPLEMENTED`);
}
