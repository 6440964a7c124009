import { ERROR_CODES, type ErrorCode } from '@switchboard/contract';

/**
 * The one error the domain throws: a spec error code and a human-readable message. The HTTP
 * layer turns it into the failure envelope with the code's status.
 * @example throw new DomainError('NOT_FOUND', 'No message msg_… exists');
 */
export class DomainError extends Error {
  override name = 'DomainError';

  /** Creates an error answered as `code` with `message`; `cause` keeps what it stands for. */
  constructor(
    /** The error code from the contract's registry. */
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The HTTP status that goes with {@link code}. */
  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

/** True when `error` is a {@link DomainError}. */
export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
