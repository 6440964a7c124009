import { useState } from 'preact/hooks';
import { dataOf, operatorClient } from '../clients';
import { ActionButton } from '../components/action-button';
import { StatusView } from '../components/status-view';
import { useLoad } from '../use-load';
import { InstanceCreateForm } from './instance-create-form';
import { InstanceEditForm } from './instance-edit-form';

/** The provider instances: their health, config (secrets masked), ingress URL; create one. */
export function InstancesPage({ token }: { token: string }) {
  const client = operatorClient(token);
  const instances = useLoad(async () => dataOf(await client.listInstances(), 200), [token]);
  // The instance whose edit form is open (one at a time).
  const [editing, setEditing] = useState<string>();
  return (
    <>
      <h1>Instances</h1>
      <StatusView loaded={instances}>
        {(list) =>
          list.length === 0 ? (
            <p>No instance yet.</p>
          ) : (
            <ul class="cards">
              {list.map((instance) => (
                <li key={instance.id} class="card">
                  <h2>{instance.name}</h2>
                  <p>
                    {instance.provider} · {instance.channels.join(', ')} ·{' '}
                    {instance.enabled ? instance.healthStatus : 'disabled'}
                  </p>
                  {instance.healthWarnings.length > 0 && (
                    <p class="warning">{instance.healthWarnings.join('; ')}</p>
                  )}
                  <p>
                    <label for={`ingress-${instance.id}`}>Ingress URL</label>{' '}
                    <input
                      id={`ingress-${instance.id}`}
                      class="wide"
                      readOnly
                      value={instance.ingressUrl}
                    />{' '}
                    <ActionButton
                      label={`Copy the ingress URL of ${instance.name}`}
                      action={() => navigator.clipboard.writeText(instance.ingressUrl)}
                    />{' '}
                    <ActionButton
                      label={`Rotate the ingress token of ${instance.name}`}
                      action={async () =>
                        dataOf(
                          await client.rotateInstanceIngressToken({
                            params: { id: instance.id },
                          }),
                          200,
                        )
                      }
                      onDone={instances.reload}
                    />
                  </p>
                  <p>
                    <button
                      type="button"
                      aria-expanded={editing === instance.id}
                      onClick={() => setEditing(editing === instance.id ? undefined : instance.id)}
                    >
                      Edit {instance.name}
                    </button>
                  </p>
                  {editing === instance.id && (
                    <InstanceEditForm
                      token={token}
                      instance={instance}
                      onSaved={() => {
                        setEditing(undefined);
                        instances.reload();
                      }}
                    />
                  )}
                  <details>
                    <summary>Config (secrets masked)</summary>
                    <pre class="json">{JSON.stringify(instance.config, null, 2)}</pre>
                  </details>
                </li>
              ))}
            </ul>
          )
        }
      </StatusView>
      <InstanceCreateForm token={token} onCreated={instances.reload} />
    </>
  );
}
