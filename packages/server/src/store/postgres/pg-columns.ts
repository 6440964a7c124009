import { customType, timestamp as pgTimestamp } from 'drizzle-orm/pg-core';

/** A point in time (`timestamptz`, millisecond precision), read back as a `Date`. */
export function timestamp(name: string) {
  return pgTimestamp(name, { mode: 'date', withTimezone: true, precision: 3 });
}

/** Bytes (`bytea`), read back as a `Buffer`. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

const byteOrderedText = customType<{ data: string; driverData: string }>({
  dataType: () => 'text COLLATE "C"',
});

/**
 * A text column compared byte by byte (`COLLATE "C"`), whatever the database's collation: keyset
 * pages and ordered ids then sort exactly as on SQLite, where a locale collation would ignore
 * punctuation and case.
 */
export function text(name: string) {
  return byteOrderedText(name);
}
