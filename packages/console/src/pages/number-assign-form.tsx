import { useState } from 'preact/hooks';
import { dataOf, operatorClient } from '../clients';
import { messageOf, useLoad } from '../use-load';

/** Assigns a sender number, served by one of the instances, to a customer. */
export function NumberAssignForm({
  token,
  customerId,
  onAssigned,
}: {
  token: string;
  customerId: string;
  onAssigned: () => void;
}) {
  const client = operatorClient(token);
  const instances = useLoad(async () => dataOf(await client.listInstances(), 200), [token]);
  const [phoneNumber, setPhoneNumber] = useState('');
  const [instanceId, setInstanceId] = useState('');
  const [isDefault, setIsDefault] = useState(true);
  const [error, setError] = useState<string>();
  const chosen = instanceId || instances.value?.[0]?.id || '';
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      dataOf(
        await client.assignNumber({
          params: { id: customerId },
          body: { phoneNumber, instanceId: chosen, isDefault },
        }),
        201,
      );
      setPhoneNumber('');
      onAssigned();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <form onSubmit={submit} aria-labelledby="assign-number-title">
      <h4 id="assign-number-title">Assign a number</h4>
      <div class="field">
        <label for="number-phone">Phone number (E.164)</label>
        <input
          id="number-phone"
          required
          placeholder="+14155550100"
          value={phoneNumber}
          onInput={(event) => setPhoneNumber(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="number-instance">Instance</label>
        <select
          id="number-instance"
          value={chosen}
          onChange={(event) => setInstanceId(event.currentTarget.value)}
        >
          {(instances.value ?? []).map((instance) => (
            <option key={instance.id} value={instance.id}>
              {instance.name} ({instance.provider})
            </option>
          ))}
        </select>
      </div>
      <div class="field inline">
        <input
          id="number-default"
          type="checkbox"
          checked={isDefault}
          onChange={(event) => setIsDefault(event.currentTarget.checked)}
        />
        <label for="number-default">Default sender</label>
      </div>
      <button type="submit">Assign number</button>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}
