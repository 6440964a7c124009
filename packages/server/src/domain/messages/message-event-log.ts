import type {
  CallbackDelivery,
  MessageEvent,
  MessageEventList,
  MessageEventsQuery,
  MessageEventWebhook,
} from '@switchboard/contract';
import type { DeliveryRecord } from '../../store/delivery-repository';
import type { EventRecord, MessageEventPageQuery } from '../../store/event-repository';
import type { MessageRecord } from '../../store/message-repository';
import type { Store } from '../../store/store';
import { toCallbackDeliveryView } from '../callbacks/callback-delivery-view';
import { DomainError } from '../domain-error';
import { toDeliveryView } from '../webhooks/webhook-views';

/** Encodes the position after an event as an opaque, URL-safe cursor. */
function encodeCursor(event: EventRecord): string {
  return Buffer.from(`${event.createdAt.getTime()}.${event.id}`, 'utf8').toString('base64url');
}

/**
 * Decodes a cursor made by {@link encodeCursor}.
 * @throws {DomainError} VALIDATION_ERROR naming `cursor` when it is not one.
 */
function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{1,15})\.(evt_[\w-]{1,64})$/.exec(decoded);
  if (!match?.[1] || !match[2]) {
    throw new DomainError('VALIDATION_ERROR', 'cursor: is not a cursor from a previous page');
  }
  return { createdAt: new Date(Number(match[1])), id: match[2] };
}

/** The attempts of one event to its webhooks, grouped by webhook in the order of its first attempt. */
function webhooksOf(
  attempts: readonly DeliveryRecord[],
  urls: ReadonlyMap<string, string>,
): MessageEventWebhook[] {
  const byWebhook = new Map<string, MessageEventWebhook>();
  for (const attempt of attempts) {
    const { webhookId } = attempt;
    if (webhookId === null) continue;
    let group = byWebhook.get(webhookId);
    if (!group) {
      group = { webhookId, url: urls.get(webhookId) ?? '', attempts: [] };
      byWebhook.set(webhookId, group);
    }
    group.attempts.push(toDeliveryView({ ...attempt, webhookId }));
  }
  return [...byWebhook.values()];
}

/**
 * The events a message emitted, oldest first, each with every attempt to deliver it: the message
 * page of the console and `GET /v1/messages/{id}/events` (and its operator twin). Two seeks per
 * page: the message's events on `events_message_idx`, their attempts on
 * `webhook_deliveries_event_idx`.
 */
export class MessageEventLog {
  /** The log over the store. */
  constructor(private readonly store: Store) {}

  /**
   * A page of the events of `message` (found and checked visible by the caller).
   * @throws {DomainError} VALIDATION_ERROR when the cursor is not one this list returned.
   */
  async list(message: MessageRecord, query: MessageEventsQuery): Promise<MessageEventList> {
    const page: MessageEventPageQuery = {
      limit: query.limit + 1,
      ...(query.cursor === undefined ? {} : { after: decodeCursor(query.cursor) }),
    };
    const rows = await this.store.events.listByMessage(message.customerId, message.id, page);
    const events = rows.slice(0, query.limit);
    const hasMore = rows.length > query.limit;
    const attempts = await this.store.deliveries.listForEvents(
      message.customerId,
      events.map((event) => event.id),
    );
    const urls = attempts.some((attempt) => attempt.webhookId !== null)
      ? new Map(
          (await this.store.webhooks.listByCustomer(message.customerId)).map((hook) => [
            hook.id,
            hook.url,
          ]),
        )
      : new Map<string, string>();
    const last = events.at(-1);
    return {
      events: events.map((event) => this.#view(event, attempts, urls)),
      pagination: { hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null },
    };
  }

  #view(
    event: EventRecord,
    attempts: readonly DeliveryRecord[],
    urls: ReadonlyMap<string, string>,
  ): MessageEvent {
    const own = attempts.filter((attempt) => attempt.eventId === event.id);
    const callbackDeliveries: CallbackDelivery[] = own
      .filter((attempt) => attempt.webhookId === null)
      .map(toCallbackDeliveryView);
    return {
      id: event.id,
      type: event.type,
      createdAt: event.createdAt.toISOString(),
      webhooks: webhooksOf(own, urls),
      callbackDeliveries,
    };
  }
}
