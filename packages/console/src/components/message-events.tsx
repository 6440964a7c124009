import type { MessageEvent, WebhookDelivery } from '@switchboard/contract';
import { useLoad } from '../use-load';
import { AttemptsTable } from './attempts-table';
import { Pager, useCursorPages } from './pager';
import { StatusView } from './status-view';

/** A page of a message's events, whichever API answered it. */
interface MessageEventPage {
  /** The events, oldest first. */
  events: MessageEvent[];
  /** The cursor of the next page, or null. */
  nextCursor: string | null;
}

/** Loads one page of a message's events at `cursor` (undefined: the first page). */
export type LoadMessageEvents = (cursor: string | undefined) => Promise<MessageEventPage>;

/** Redelivers an attempt to its webhook (the customer's route), when the credential has it. */
export type Redeliver = (attempt: WebhookDelivery) => Promise<unknown>;

/** One event with its deliveries: per webhook, then to the message's callback URL. */
function EventItem({
  event,
  redeliver,
  onRedelivered,
}: {
  event: MessageEvent;
  redeliver: Redeliver | undefined;
  onRedelivered: () => void;
}) {
  const none = event.webhooks.length === 0 && event.callbackDeliveries.length === 0;
  return (
    <li>
      <p>
        <strong>{event.type}</strong> <time dateTime={event.createdAt}>{event.createdAt}</time>{' '}
        <span class="muted">{event.id}</span>
      </p>
      {none && <p>Delivered to no webhook.</p>}
      {event.webhooks.map((hook) => (
        <AttemptsTable
          key={hook.webhookId}
          label={`${event.type} to ${hook.url}`}
          attempts={hook.attempts}
          onRedelivered={onRedelivered}
          {...(redeliver ? { redeliver } : {})}
        />
      ))}
      {event.callbackDeliveries.length > 0 && (
        <AttemptsTable
          label={`${event.type} to the callback URL ${event.callbackDeliveries[0]?.url ?? ''}`}
          attempts={event.callbackDeliveries}
          onRedelivered={onRedelivered}
        />
      )}
    </li>
  );
}

/**
 * The events a message emitted, oldest first, each with every attempt to deliver it (per webhook
 * and to the callback URL), paginated by the server; **Redeliver** where `redeliver` is given.
 */
export function MessageEvents({
  load,
  deps,
  redeliver,
}: {
  load: LoadMessageEvents;
  deps: readonly unknown[];
  redeliver?: Redeliver;
}) {
  const pages = useCursorPages();
  const page = useLoad(() => load(pages.cursor), [...deps, pages.cursor]);
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">Events and their deliveries</h2>
      <p>
        <button type="button" onClick={page.reload}>
          Refresh the events
        </button>
      </p>
      <StatusView loaded={page}>
        {(shown) => (
          <>
            {shown.events.length === 0 ? (
              <p>No event yet.</p>
            ) : (
              <ol aria-label="Events" class="story">
                {shown.events.map((event) => (
                  <EventItem
                    key={event.id}
                    event={event}
                    redeliver={redeliver}
                    onRedelivered={page.reload}
                  />
                ))}
              </ol>
            )}
            <Pager pages={pages} nextCursor={shown.nextCursor} label="Pages of the events" />
          </>
        )}
      </StatusView>
    </section>
  );
}
