import { MESSAGE_STATUSES } from '@switchboard/contract';
import { useState } from 'preact/hooks';
import { SelectField, TextField } from './labelled-fields';

/** The channels a message can be routed to. */
const CHANNELS = ['imessage', 'sms', 'whatsapp'] as const;

/** The search a message list's form holds: every field a string, empty when unused. */
export interface MessageSearch {
  customerId: string;
  status: string;
  to: string;
  from: string;
  channel: string;
  createdAfter: string;
  createdBefore: string;
}

/** No filter. */
export const EMPTY_SEARCH: MessageSearch = {
  customerId: '',
  status: '',
  to: '',
  from: '',
  channel: '',
  createdAfter: '',
  createdBefore: '',
};

/** The list filters of a search (empty fields left out, local times as ISO 8601 instants). */
export function filtersOf(search: MessageSearch) {
  const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);
  const filters = {
    customerId: search.customerId || undefined,
    status: (search.status || undefined) as (typeof MESSAGE_STATUSES)[number] | undefined,
    to: search.to.trim() || undefined,
    from: search.from.trim() || undefined,
    channel: (search.channel || undefined) as (typeof CHANNELS)[number] | undefined,
    createdAfter: instant(search.createdAfter),
    createdBefore: instant(search.createdBefore),
  };
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) as {
    [K in keyof typeof filters]?: Exclude<(typeof filters)[K], undefined>;
  };
}

/**
 * The search form of a message list: status, recipient, number, channel and creation time, and
 * the customer when `customers` is given (the operator's list).
 */
export function MessageSearchForm({
  customers,
  onSearch,
}: {
  customers?: readonly (readonly [string, string])[];
  onSearch: (search: MessageSearch) => void;
}) {
  const [draft, setDraft] = useState<MessageSearch>(EMPTY_SEARCH);
  const set = (field: keyof MessageSearch) => (value: string) =>
    setDraft({ ...draft, [field]: value });
  const statuses = MESSAGE_STATUSES.map((status) => [status, status] as const);
  const submit = (event: Event) => {
    event.preventDefault();
    onSearch(draft);
  };
  return (
    <form class="filters" onSubmit={submit} aria-label="Search messages">
      {customers && (
        <SelectField
          any
          id="filter-customer"
          label="Customer"
          value={draft.customerId}
          options={customers}
          onChange={set('customerId')}
        />
      )}
      <SelectField
        any
        id="filter-status"
        label="Status"
        value={draft.status}
        options={statuses}
        onChange={set('status')}
      />
      <TextField
        id="filter-to"
        label="Recipient"
        placeholder="+14155550100"
        value={draft.to}
        onInput={set('to')}
      />
      <TextField
        id="filter-from"
        label="Number (sender)"
        placeholder="+14155550199"
        value={draft.from}
        onInput={set('from')}
      />
      <SelectField
        any
        id="filter-channel"
        label="Channel"
        value={draft.channel}
        options={CHANNELS.map((channel) => [channel, channel] as const)}
        onChange={set('channel')}
      />
      <TextField
        id="filter-after"
        label="Created from"
        type="datetime-local"
        value={draft.createdAfter}
        onInput={set('createdAfter')}
      />
      <TextField
        id="filter-before"
        label="Created before"
        type="datetime-local"
        value={draft.createdBefore}
        onInput={set('createdBefore')}
      />
      <button type="submit">Search</button>
    </form>
  );
}
