import { WEBHOOK_EVENT_SELECTORS } from '@switchboard/contract';
import type { WebhookCreateParams } from '@switchboard/sdk';
import { useState } from 'preact/hooks';
import { customerClient } from '../clients';
import { StatusView } from '../components/status-view';
import { messageOf, useLoad } from '../use-load';
import { WebhookCard } from './webhook-card';

/** The customer's webhooks: each with its delivery log and actions; register one. */
export function WebhooksPage({ token }: { token: string }) {
  const client = customerClient(token);
  const webhooks = useLoad(() => client.webhooks.list(), [token]);
  const [url, setUrl] = useState('');
  const [event, setEvent] = useState<WebhookCreateParams['events'][number]>('*');
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();
  const create = async (submitted: Event) => {
    submitted.preventDefault();
    setError(undefined);
    try {
      const created = await client.webhooks.create({ url, events: [event] });
      setSecret(created.secret ?? undefined);
      setUrl('');
      webhooks.reload();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <>
      <h1>Webhooks</h1>
      <StatusView loaded={webhooks}>
        {(list) =>
          list.length === 0 ? (
            <p>No webhook yet.</p>
          ) : (
            <ul class="cards">
              {list.map((webhook) => (
                <WebhookCard key={webhook.id} token={token} webhook={webhook} />
              ))}
            </ul>
          )
        }
      </StatusView>
      <form onSubmit={create} aria-labelledby="create-webhook-title">
        <h2 id="create-webhook-title">Register a webhook</h2>
        <div class="field">
          <label for="webhook-url">Receiver URL</label>
          <input
            id="webhook-url"
            type="url"
            required
            class="wide"
            value={url}
            onInput={(input) => setUrl(input.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="webhook-events">Events</label>
          <select
            id="webhook-events"
            value={event}
            onChange={(change) => setEvent(change.currentTarget.value as typeof event)}
          >
            {WEBHOOK_EVENT_SELECTORS.map((selector) => (
              <option key={selector} value={selector}>
                {selector}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Register webhook</button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </form>
      {secret && (
        <div class="once" role="status">
          <label for="webhook-secret">Signing secret (shown once: copy it now)</label>
          <input id="webhook-secret" class="wide" readOnly value={secret} />
        </div>
      )}
    </>
  );
}
