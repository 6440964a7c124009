import { customerClient, dataOf, messageRoutesClient } from '../clients';
import { ActionButton } from '../components/action-button';
import { MessageDetails } from '../components/message-details';
import { MessageEvents } from '../components/message-events';
import { RoutingTrace } from '../components/routing-trace';
import { StatusView } from '../components/status-view';
import { hrefOf } from '../route';
import { useLoad } from '../use-load';

/** Events per page on a message page. */
const EVENTS_PAGE_SIZE = 20;

/**
 * One message of the customer: its content, status, timeline, routing trace, and the events it
 * emitted with each delivery's attempts (redeliver any); retry it when failed, cancel it when
 * scheduled.
 */
export function MessagePage({ token, id }: { token: string; id: string }) {
  const client = customerClient(token);
  const message = useLoad(() => client.messages.get(id), [token, id]);
  return (
    <>
      <p>
        <a href={hrefOf('messages')}>← Messages</a>
      </p>
      <h1>Message {id}</h1>
      <StatusView loaded={message}>
        {(shown) => (
          <>
            <MessageDetails message={shown} />
            <RoutingTrace
              load={async () =>
                dataOf(await messageRoutesClient(token).routing({ params: { id } }), 200)
              }
              deps={[token, id]}
            />
            <MessageEvents
              load={async (cursor) => {
                const page = await client.messages.listEvents(id, {
                  limit: EVENTS_PAGE_SIZE,
                  ...(cursor ? { cursor } : {}),
                });
                return { events: page.items, nextCursor: page.nextCursor ?? null };
              }}
              deps={[token, id]}
              redeliver={(attempt) => client.webhooks.redeliver(attempt.webhookId, attempt.id)}
            />
            {shown.status === 'failed' && (
              <ActionButton
                label="Retry"
                action={() => client.messages.retry(id)}
                onDone={message.reload}
              />
            )}
            {shown.status === 'scheduled' && (
              <ActionButton
                label="Cancel the schedule"
                action={() => client.messages.cancelSchedule(id)}
                onDone={message.reload}
              />
            )}
          </>
        )}
      </StatusView>
    </>
  );
}
