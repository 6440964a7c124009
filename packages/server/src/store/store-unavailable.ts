/**
 * Codes that mean "not now": SQLite result codes (primary, as the start of the extended code),
 * PostgreSQL SQLSTATEs and the network errors of its connections.
 */
const UNAVAILABLE_CODES: ReadonlyArray<[prefix: string, reason: string]> = [
  ['SQLITE_BUSY', 'another process holds a lock on it'],
  ['SQLITE_LOCKED', 'it is locked'],
  ['SQLITE_READONLY', 'it cannot be written (read-only)'],
  ['SQLITE_FULL', 'the disk is full'],
  ['SQLITE_IOERR', 'the disk refused a read or write'],
  ['SQLITE_CANTOPEN', 'a file of it cannot be opened'],
  ['SQLITE_PROTOCOL', 'its lock protocol failed'],
  // PostgreSQL (SQLSTATE classes and codes) and the connection to it.
  ['ECONNREFUSED', 'its server refuses connections'],
  ['ECONNRESET', 'its server closed the connection'],
  ['ETIMEDOUT', 'its server does not answer'],
  ['08', 'the connection to its server failed'],
  ['53', 'its server is out of resources (connections, memory or disk)'],
  ['57P', 'its server is shutting down or starting'],
  ['25006', 'it is read-only (a standby)'],
  ['40001', 'too many concurrent changes conflicted'],
];

/** Errors of the PostgreSQL driver that carry no code, by the start of their message. */
const UNAVAILABLE_MESSAGES: ReadonlyArray<[prefix: string, reason: string]> = [
  ['timeout exceeded when trying to connect', 'its server does not answer'],
  ['Connection terminated', 'the connection to its server failed'],
];

/**
 * Why the database cannot serve now, when `error` is a storage condition that can pass (a lock
 * held by another process, a read-only or full disk, an I/O error), or undefined for any other
 * error. Such errors answer 503 `SERVICE_UNAVAILABLE`, never 500: nothing was written, and the
 * same request succeeds once the cause is gone. Errors that wrap one (`cause`) count too.
 * @example storeUnavailableReason(Object.assign(new Error('x'), { code: 'SQLITE_FULL' })) // 'the disk is full'
 */
export function storeUnavailableReason(error: unknown, depth = 0): string | undefined {
  const { code, cause, message } = (error ?? {}) as {
    code?: unknown;
    cause?: unknown;
    message?: unknown;
  };
  if (typeof code === 'string') {
    const reason = UNAVAILABLE_CODES.find(([prefix]) => code.startsWith(prefix))?.[1];
    if (reason !== undefined) return reason;
  } else if (typeof message === 'string') {
    const reason = UNAVAILABLE_MESSAGES.find(([prefix]) => message.startsWith(prefix))?.[1];
    if (reason !== undefined) return reason;
  }
  // Wrapped on its way up (a provider's sink error, say): the cause decides.
  return cause !== undefined && depth < 5 ? storeUnavailableReason(cause, depth + 1) : undefined;
}
