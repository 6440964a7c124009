import { useState } from 'preact/hooks';
import { dataOf, operatorClient } from '../clients';
import { ActionButton } from '../components/action-button';
import { StatusView } from '../components/status-view';
import { useLoad } from '../use-load';
import { NumberAssignForm } from './number-assign-form';

/** One customer: API keys (a new one shown once), sender numbers, opt-outs. */
export function CustomerDetail({ token, customerId }: { token: string; customerId: string }) {
  const client = operatorClient(token);
  const params = { id: customerId };
  const keys = useLoad(async () => dataOf(await client.listApiKeys({ params }), 200), [customerId]);
  const numbers = useLoad(
    async () => dataOf(await client.listCustomerNumbers({ params }), 200),
    [customerId],
  );
  const optOuts = useLoad(
    async () => dataOf(await client.listCustomerOptOuts({ params, query: {} }), 200),
    [customerId],
  );
  const [newKey, setNewKey] = useState<string>();
  return (
    <section aria-labelledby="customer-title" class="detail">
      <h2 id="customer-title">Customer {customerId}</h2>
      <h3>API keys</h3>
      <StatusView loaded={keys}>
        {(list) => (
          <ul class="list">
            {list.map((key) => (
              <li key={key.id}>
                {key.prefix}… {key.name ?? ''} {key.revokedAt ? '(revoked)' : ''}
              </li>
            ))}
          </ul>
        )}
      </StatusView>
      <ActionButton
        label="Create an API key"
        action={async () => {
          const created = dataOf(await client.createApiKey({ params, body: {} }), 201);
          setNewKey(created.key);
        }}
        onDone={keys.reload}
      />
      {newKey && (
        <div class="once" role="status">
          <label for="new-key">New API key (shown once: copy it now)</label>
          <input id="new-key" class="wide" readOnly value={newKey} />
        </div>
      )}
      <h3>Sender numbers</h3>
      <StatusView loaded={numbers}>
        {(list) => (
          <ul class="list">
            {list.map((number) => (
              <li key={number.phoneNumber}>
                {number.phoneNumber} on {number.instanceName} ({number.healthStatus})
                {number.isDefault ? ' · default' : ''}
                {Object.keys(number.channelInstances).length > 0
                  ? ` · channels elsewhere: ${JSON.stringify(number.channelInstances)}`
                  : ''}
              </li>
            ))}
          </ul>
        )}
      </StatusView>
      <NumberAssignForm token={token} customerId={customerId} onAssigned={numbers.reload} />
      <h3>Opt-outs</h3>
      <StatusView loaded={optOuts}>
        {(page) => <pre class="json">{JSON.stringify(page, null, 2)}</pre>}
      </StatusView>
    </section>
  );
}
