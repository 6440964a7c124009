import { DomainError } from '../domain-error';

/** A position in a list: a timestamp and the id that breaks ties. */
export interface CursorPosition {
  /** The sort timestamp (createdAt, or scheduledAt for scheduled lists), epoch milliseconds. */
  at: number;
  /** The message id. */
  id: string;
}

/** Encodes a position as an opaque, URL-safe cursor. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.at}.${position.id}`, 'utf8').toString('base64url');
}

/**
 * Decodes a cursor made by {@link encodeCursor}.
 * @throws {DomainError} VALIDATION_ERROR naming `cursor` when it is not one.
 */
export function decodeCursor(cursor: string): CursorPosition {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{1,15})\.(msg_[0-9a-f-]{36})$/i.exec(decoded);
  if (!match?.[1] || !match[2]) {
    throw new DomainError('VALIDATION_ERROR', 'cursor: is not a cursor from a previous page');
  }
  return { at: Number(match[1]), id: match[2] };
}
