import { PROVIDER_CHANNELS } from '@switchboard/contract';
import { useState } from 'preact/hooks';
import { dataOf, operatorClient } from '../clients';
import { ConfigFormFields } from '../components/config-form-fields';
import { configFields, configFromForm, type ProviderName } from '../config-fields';
import { messageOf } from '../use-load';

const PROVIDERS = Object.keys(PROVIDER_CHANNELS) as ProviderName[];

/** Creates an instance of any provider, its config form read from the contract's schema. */
export function InstanceCreateForm({ token, onCreated }: { token: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [provider, setProvider] = useState<ProviderName>('simulator');
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const fields = configFields(provider);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      dataOf(
        await operatorClient(token).createInstance({
          body: { name, provider, config: configFromForm(fields, values) },
        }),
        201,
      );
      setName('');
      setValues({});
      onCreated();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <form onSubmit={submit} aria-labelledby="create-instance-title">
      <h2 id="create-instance-title">Create an instance</h2>
      <div class="field">
        <label for="instance-name">Name</label>
        <input
          id="instance-name"
          required
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="instance-provider">Provider</label>
        <select
          id="instance-provider"
          value={provider}
          onChange={(event) => {
            setProvider(event.currentTarget.value as ProviderName);
            setValues({});
          }}
        >
          {PROVIDERS.map((option) => (
            <option key={option} value={option}>
              {option} ({PROVIDER_CHANNELS[option].join(', ')})
            </option>
          ))}
        </select>
      </div>
      <ConfigFormFields
        fields={fields}
        values={values}
        onChange={(field, value) => setValues({ ...values, [field]: value })}
      />
      <button type="submit">Create instance</button>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}
