import { useState } from 'preact/hooks';
import { dataOf, operatorClient } from '../clients';
import { EMPTY_SEARCH, filtersOf, MessageSearchForm } from '../components/message-search';
import { MessagesTable } from '../components/messages-table';
import { Pager, useCursorPages } from '../components/pager';
import { StatusView } from '../components/status-view';
import { useLoad } from '../use-load';
import { PAGE_SIZE } from './messages-page';

/**
 * Every customer's messages for the operator, newest first, searched by customer, number,
 * recipient, channel, status and time, and paginated by the server (`GET /admin/v1/messages`).
 */
export function OperatorMessagesPage({ token }: { token: string }) {
  const client = operatorClient(token);
  const customers = useLoad(async () => dataOf(await client.listCustomers(), 200), [token]);
  const [search, setSearch] = useState(EMPTY_SEARCH);
  const pages = useCursorPages();
  const page = useLoad(async () => {
    const query = {
      limit: PAGE_SIZE,
      ...filtersOf(search),
      ...(pages.cursor ? { cursor: pages.cursor } : {}),
    };
    return dataOf(await client.listMessages({ query }), 200);
  }, [token, search, pages.cursor]);
  const names = new Map((customers.value ?? []).map((customer) => [customer.id, customer.name]));
  return (
    <>
      <h1>Messages</h1>
      <p>
        Each row opens its message: content, timeline, routing trace, and the events it emitted with
        their deliveries. The live tail and the sandbox are a customer's views: create an API key
        for the customer on its Customers page and sign in with it.
      </p>
      <MessageSearchForm
        customers={[...names]}
        onSearch={(next) => {
          setSearch(next);
          pages.restart();
        }}
      />
      <StatusView loaded={page}>
        {(result) => (
          <>
            <MessagesTable
              operator
              rows={result.messages.map((message) => ({
                message,
                customer: names.get(message.customerId) ?? message.customerId,
              }))}
            />
            <Pager pages={pages} nextCursor={result.pagination.nextCursor} />
          </>
        )}
      </StatusView>
    </>
  );
}
