import type { WebhookResponse } from '@switchboard/sdk';
import { useState } from 'preact/hooks';
import { customerClient } from '../clients';
import { ActionButton } from '../components/action-button';
import { Pager, useCursorPages } from '../components/pager';
import { ResponseExcerpt } from '../components/response-excerpt';
import { StatusView } from '../components/status-view';
import { useLoad } from '../use-load';

/** One webhook: test it, rotate its secret, read its delivery log and redeliver an attempt. */
export function WebhookCard({ token, webhook }: { token: string; webhook: WebhookResponse }) {
  const client = customerClient(token);
  const pages = useCursorPages();
  const deliveries = useLoad(
    () =>
      client.webhooks.listDeliveries(webhook.id, {
        limit: 20,
        ...(pages.cursor ? { cursor: pages.cursor } : {}),
      }),
    [token, webhook.id, pages.cursor],
  );
  const [secret, setSecret] = useState<string>();
  const label = webhook.name ?? webhook.url;
  return (
    <li class="card">
      <h2>{label}</h2>
      <p>
        {webhook.url} · {webhook.events.join(', ')} · {webhook.active ? 'active' : 'inactive'}
      </p>
      <p>
        <ActionButton
          label={`Send a test event to ${label}`}
          action={() => client.webhooks.test(webhook.id)}
          onDone={deliveries.reload}
        />{' '}
        <ActionButton
          label={`Rotate the secret of ${label}`}
          action={async () => setSecret((await client.webhooks.rotateSecret(webhook.id)).secret)}
        />{' '}
        <button type="button" onClick={deliveries.reload}>
          Refresh the delivery log of {label}
        </button>
      </p>
      {secret && (
        <p role="status">
          <label for={`secret-${webhook.id}`}>New signing secret (shown once)</label>{' '}
          <input id={`secret-${webhook.id}`} class="wide" readOnly value={secret} />
        </p>
      )}
      <StatusView loaded={deliveries}>
        {(page) => (
          <>
            <table aria-label={`Deliveries of ${label}`}>
              <thead>
                <tr>
                  <th scope="col">Attempted</th>
                  <th scope="col">Event</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Status</th>
                  <th scope="col">HTTP</th>
                  <th scope="col">Time</th>
                  <th scope="col">Error</th>
                  <th scope="col">Response</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>{delivery.attemptedAt ?? delivery.createdAt}</td>
                    <td>{delivery.eventType}</td>
                    <td>{delivery.trigger}</td>
                    <td>{delivery.attempt}</td>
                    <td>{delivery.status}</td>
                    <td>{delivery.statusCode ?? ''}</td>
                    <td>{delivery.durationMs === null ? '' : `${delivery.durationMs} ms`}</td>
                    <td class="text">{delivery.error ?? ''}</td>
                    <td class="text">
                      <ResponseExcerpt body={delivery.responseBody} />
                    </td>
                    <td>
                      <ActionButton
                        label={`Redeliver ${delivery.eventType} attempt ${delivery.attempt}`}
                        action={() => client.webhooks.redeliver(webhook.id, delivery.id)}
                        onDone={deliveries.reload}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              pages={pages}
              nextCursor={page.hasNextPage() ? page.nextCursor : null}
              label={`Pages of the delivery log of ${label}`}
            />
          </>
        )}
      </StatusView>
    </li>
  );
}
