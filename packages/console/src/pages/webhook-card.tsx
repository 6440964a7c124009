import type { WebhookResponse } from '@switchboard/sdk';
import { useState } from 'preact/hooks';
import { customerClient } from '../clients';
import { ActionButton } from '../components/action-button';
import { AttemptsTable } from '../components/attempts-table';
import { Pager, useCursorPages } from '../components/pager';
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
            <AttemptsTable
              label={`Deliveries of ${label}`}
              attempts={page.items}
              showEvent
              redeliver={(delivery) => client.webhooks.redeliver(webhook.id, delivery.id)}
              redeliverLabel={(delivery) =>
                `Redeliver ${delivery.eventType} attempt ${delivery.attempt}`
              }
              onRedelivered={deliveries.reload}
            />
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
