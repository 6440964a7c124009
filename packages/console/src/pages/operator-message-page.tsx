import { dataOf, operatorClient } from '../clients';
import { MessageDetails } from '../components/message-details';
import { MessageEvents } from '../components/message-events';
import { RoutingTrace } from '../components/routing-trace';
import { StatusView } from '../components/status-view';
import { hrefOf } from '../route';
import { useLoad } from '../use-load';

/** Events per page on a message page. */
const EVENTS_PAGE_SIZE = 20;

/**
 * One message of any customer, for the operator (`GET /admin/v1/messages/{id}` and its events):
 * its customer, content, status, timeline, routing trace, and the events it emitted with each
 * delivery's attempts. Read only: retry, cancel and redeliver are the customer's routes.
 */
export function OperatorMessagePage({ token, id }: { token: string; id: string }) {
  const client = operatorClient(token);
  const message = useLoad(
    async () => dataOf(await client.getMessage({ params: { id } }), 200),
    [token, id],
  );
  const customers = useLoad(async () => dataOf(await client.listCustomers(), 200), [token]);
  return (
    <>
      <p>
        <a href={hrefOf('messages')}>← Messages</a>
      </p>
      <h1>Message {id}</h1>
      <StatusView loaded={message}>
        {(shown) => (
          <>
            <p>
              Customer:{' '}
              <a href={hrefOf('customers', shown.customerId)}>
                {customers.value?.find((customer) => customer.id === shown.customerId)?.name ??
                  shown.customerId}
              </a>
            </p>
            <MessageDetails message={shown} />
            <RoutingTrace load={async () => shown.routing} deps={[shown]} />
            <MessageEvents
              load={async (cursor) => {
                const query = { limit: EVENTS_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
                const page = dataOf(await client.listMessageEvents({ params: { id }, query }), 200);
                return { events: page.events, nextCursor: page.pagination.nextCursor };
              }}
              deps={[token, id]}
            />
          </>
        )}
      </StatusView>
    </>
  );
}
