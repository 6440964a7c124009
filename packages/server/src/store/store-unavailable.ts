/** SQLite result codes (primary, as the start of the extended code) that mean "not now". */
const UNAVAILABLE_CODES: ReadonlyArray<[prefix: string, reason: string]> = [
  ['SQLITE_BUSY', 'another process holds a lock on it'],
  ['SQLITE_LOCKED', 'it is locked'],
  ['SQLITE_READONLY', 'it cannot be written (read-only)'],
  ['SQLITE_FULL', 'the disk is full'],
  ['SQLITE_IOERR', 'the disk refused a read or write'],
  ['SQLITE_CANTOPEN', 'a file of it cannot be opened'],
  ['SQLITE_PROTOCOL', 'its lock protocol failed'],
];

/**
 * Why the database cannot serve now, when `error` is a storage condition that can pass (a lock
 * held by another process, a read-only or full disk, an I/O error), or undefined for any other
 * error. Such errors answer 503 `SERVICE_UNAVAILABLE`, never 500: nothing was written, and the
 * same request succeeds once the cause is gone. Errors that wrap one (`cause`) count too.
 * @example storeUnavailableReason(Object.assign(new Error('x'), { code: 'SQLITE_FULL' })) // 'the disk is full'
 */
export function storeUnavailableReason(error: unknown, depth = 0): string | undefined {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: unknown };
  if (typeof code === 'string') {
    const reason = UNAVAILABLE_CODES.find(([prefix]) => code.startsWith(prefix))?.[1];
    if (reason !== undefined) return reason;
  }
  // Wrapped on its way up (a provider's sink error, say): the cause decides.
  return cause !== undefined && depth < 5 ? storeUnavailableReason(cause, depth + 1) : undefined;
}
