import { useState } from 'preact/hooks';
import { customerClient } from '../clients';
import { EMPTY_SEARCH, filtersOf, MessageSearchForm } from '../components/message-search';
import { MessagesTable } from '../components/messages-table';
import { Pager, useCursorPages } from '../components/pager';
import { StatusView } from '../components/status-view';
import { useLoad } from '../use-load';

/** Rows a page shows. */
export const PAGE_SIZE = 50;

/** The customer's messages, newest first, searched and paginated by the server. */
export function MessagesPage({ token }: { token: string }) {
  const [search, setSearch] = useState(EMPTY_SEARCH);
  const pages = useCursorPages();
  const page = useLoad(() => {
    const { customerId: _all, ...filters } = filtersOf(search);
    return customerClient(token).messages.list({
      limit: PAGE_SIZE,
      ...filters,
      ...(pages.cursor ? { cursor: pages.cursor } : {}),
    });
  }, [token, search, pages.cursor]);
  return (
    <>
      <h1>Messages</h1>
      <MessageSearchForm
        onSearch={(next) => {
          setSearch(next);
          pages.restart();
        }}
      />
      <StatusView loaded={page}>
        {(result) => (
          <>
            <MessagesTable operator={false} rows={result.items.map((message) => ({ message }))} />
            <Pager pages={pages} nextCursor={result.hasNextPage() ? result.nextCursor : null} />
          </>
        )}
      </StatusView>
    </>
  );
}
