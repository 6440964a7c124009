import type { WebhookDeliveryQuery } from '@switchboard/contract';
import type { DeliveryPageQuery, DeliveryRecord } from '../../store/delivery-repository';
import { DomainError } from '../domain-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The opaque cursor after an attempt: its id (UUID v7, so id order is creation order). */
function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!UUID.test(id)) {
    throw new DomainError('VALIDATION_ERROR', 'cursor: not a cursor returned by this list');
  }
  return id;
}

/**
 * The store query of a delivery log page: one more row than asked, to know whether more follow.
 * @throws {DomainError} VALIDATION_ERROR when the cursor is not one this log returned.
 */
export function deliveryPageQuery(query: WebhookDeliveryQuery): DeliveryPageQuery {
  return {
    limit: query.limit + 1,
    ...(query.cursor === undefined ? {} : { before: decodeCursor(query.cursor) }),
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.eventId === undefined ? {} : { eventId: query.eventId }),
  };
}

/** A page of a delivery log from the rows {@link deliveryPageQuery} found, newest first. */
export function deliveryPage<View>(
  rows: readonly DeliveryRecord[],
  limit: number,
  view: (row: DeliveryRecord) => View,
): { deliveries: View[]; pagination: { hasMore: boolean; nextCursor: string | null } } {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page.at(-1);
  return {
    deliveries: page.map(view),
    pagination: { hasMore, nextCursor: hasMore && last ? encodeCursor(last.id) : null },
  };
}
