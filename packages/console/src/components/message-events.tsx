import type { MessageEvent, WebhookDelivery } from '@switchboard/contract';
import { useLoad } from '../use-load';
import { ActionButton } from './action-button';
import { Pager, useCursorPages } from './pager';
import { ResponseExcerpt } from './response-excerpt';
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

/** The attempts of one event to one receiver, as a table. */
function AttemptsTable({
  label,
  attempts,
  redeliver,
  onRedelivered,
}: {
  label: string;
  attempts: ReadonlyArray<
    Pick<
      WebhookDelivery,
      | 'id'
      | 'attempt'
      | 'trigger'
      | 'status'
      | 'statusCode'
      | 'durationMs'
      | 'error'
      | 'responseBody'
    > & { attemptedAt: string | null; createdAt: string }
  >;
  redeliver?: (attemptId: string) => Promise<unknown>;
  onRedelivered: () => void;
}) {
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Attempted</th>
          <th scope="col">Trigger</th>
          <th scope="col">Attempt</th>
          <th scope="col">Status</th>
          <th scope="col">HTTP</th>
          <th scope="col">Time</th>
          <th scope="col">Error</th>
          <th scope="col">Response</th>
          {redeliver && <th scope="col">Action</th>}
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.id}>
            <td>{attempt.attemptedAt ?? attempt.createdAt}</td>
            <td>{attempt.trigger}</td>
            <td>{attempt.attempt}</td>
            <td>{attempt.status}</td>
            <td>{attempt.statusCode ?? ''}</td>
            <td>{attempt.durationMs === null ? '' : `${attempt.durationMs} ms`}</td>
            <td class="text">{attempt.error ?? ''}</td>
            <td class="text">
              <ResponseExcerpt body={attempt.responseBody} />
            </td>
            {redeliver && (
              <td>
                <ActionButton
                  label={`Redeliver attempt ${attempt.attempt} (${attempt.trigger}) of ${label}`}
                  action={() => redeliver(attempt.id)}
                  onDone={onRedelivered}
                />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

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
      {event.webhooks.map((hook) => {
        const byId = new Map(hook.attempts.map((attempt) => [attempt.id, attempt]));
        return (
          <AttemptsTable
            key={hook.webhookId}
            label={`${event.type} to ${hook.url}`}
            attempts={hook.attempts}
            onRedelivered={onRedelivered}
            {...(redeliver
              ? {
                  redeliver: async (attemptId: string) => {
                    const attempt = byId.get(attemptId);
                    if (attempt) await redeliver(attempt);
                  },
                }
              : {})}
          />
        );
      })}
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
