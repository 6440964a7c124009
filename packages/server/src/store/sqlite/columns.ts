import { integer } from 'drizzle-orm/sqlite-core';

/** A point in time, stored as epoch milliseconds and read back as a `Date`. */
export function timestamp(name: string) {
  return integer(name, { mode: 'timestamp_ms' });
}
