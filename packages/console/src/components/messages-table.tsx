import type { Message } from '@switchboard/contract';
import { hrefOf } from '../route';

/** A listed message, and for the operator the name of its customer. */
export interface MessageRow {
  message: Pick<
    Message,
    'id' | 'createdAt' | 'direction' | 'from' | 'channel' | 'status' | 'content'
  > & { to?: string | undefined };
  customer?: string;
}

/**
 * A page of messages; each row opens its message page (the customer's, or the operator's through
 * the admin routes), and the operator's rows name their customer.
 */
export function MessagesTable({ rows, operator }: { rows: MessageRow[]; operator: boolean }) {
  return (
    <>
      <table aria-label="Messages">
        <thead>
          <tr>
            <th scope="col">Created</th>
            {operator && <th scope="col">Customer</th>}
            <th scope="col">Direction</th>
            <th scope="col">To</th>
            <th scope="col">From</th>
            <th scope="col">Channel</th>
            <th scope="col">Status</th>
            <th scope="col">Text</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ message, customer }) => (
            <tr key={message.id}>
              <td>
                <a href={hrefOf('messages', message.id)}>{message.createdAt}</a>
              </td>
              {operator && <td>{customer ?? ''}</td>}
              <td>{message.direction}</td>
              <td>{message.to ?? ''}</td>
              <td>{message.from}</td>
              <td>{message.channel ?? ''}</td>
              <td>{message.status}</td>
              <td class="text">{message.content.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p>No message matches.</p>}
    </>
  );
}
