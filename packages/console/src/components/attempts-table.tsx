import type { WebhookDelivery } from '@switchboard/contract';
import { ActionButton } from './action-button';
import { ResponseExcerpt } from './response-excerpt';

/** What the table shows of one delivery attempt (a webhook's, or a callback URL's). */
export type AttemptRow = Pick<
  WebhookDelivery,
  'id' | 'attempt' | 'trigger' | 'status' | 'statusCode' | 'durationMs' | 'error' | 'responseBody'
> & {
  /** When it was made; null while it waits. */
  attemptedAt: string | null;
  /** When it was queued. */
  createdAt: string;
  /** The event type, shown in its own column when every row has it (a webhook's delivery log). */
  eventType?: string;
};

/** The props of {@link AttemptsTable}. */
export interface AttemptsTableProps<Row extends AttemptRow> {
  /** Names the table (its accessible label) and, in their labels, its Redeliver buttons. */
  label: string;
  /** The attempts, in the order shown. */
  attempts: readonly Row[];
  /** Shows the event type of each attempt in a column (the delivery log of one webhook). */
  showEvent?: boolean;
  /** Redelivers an attempt: each row gets a Redeliver button when given. */
  redeliver?: (attempt: Row) => Promise<unknown>;
  /** The Redeliver button's accessible name for `attempt` (by default: its number, trigger, label). */
  redeliverLabel?: (attempt: Row) => string;
  /** Called once a redelivery was queued (to reload the attempts). */
  onRedelivered: () => void;
}

/**
 * Delivery attempts as a table: when, trigger, attempt number, status, HTTP status, time, error
 * and the start of the receiver's answer, with Redeliver where allowed. The message page's events
 * and each webhook's delivery log both show their attempts through it.
 */
export function AttemptsTable<Row extends AttemptRow>({
  label,
  attempts,
  showEvent = false,
  redeliver,
  redeliverLabel = (attempt) =>
    `Redeliver attempt ${attempt.attempt} (${attempt.trigger}) of ${label}`,
  onRedelivered,
}: AttemptsTableProps<Row>) {
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Attempted</th>
          {showEvent && <th scope="col">Event</th>}
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
            {showEvent && <td>{attempt.eventType ?? ''}</td>}
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
                  label={redeliverLabel(attempt)}
                  action={() => redeliver(attempt)}
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
