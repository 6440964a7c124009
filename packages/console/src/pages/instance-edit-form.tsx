import type { Instance } from '@switchboard/contract';
import { useState } from 'preact/hooks';
import { dataOf, operatorClient } from '../clients';
import { ConfigFormFields } from '../components/config-form-fields';
import { configFields, configFromForm, type ProviderName } from '../config-fields';
import { messageOf } from '../use-load';

/** The form's starting values: the stored settings, secrets left blank (write-only). */
function initialValues(instance: Instance, provider: ProviderName) {
  const values: Record<string, string> = {};
  const stored: Record<string, string> = {};
  for (const field of configFields(provider)) {
    const value = instance.config[field.name];
    if (value === undefined || value === null) continue;
    if (field.secret) stored[field.name] = String(value);
    else values[field.name] = String(value);
  }
  return { values, stored };
}

/**
 * Edits an instance's name and config, the form read from the contract's schema of its provider.
 * Secrets are write-only: blank keeps the stored one, whose mask shows beside the field.
 */
export function InstanceEditForm({
  token,
  instance,
  onSaved,
}: {
  token: string;
  instance: Instance;
  onSaved: () => void;
}) {
  const provider = instance.provider as ProviderName;
  const fields = configFields(provider);
  const [start] = useState(() => initialValues(instance, provider));
  const [name, setName] = useState(instance.name);
  const [values, setValues] = useState(start.values);
  const [error, setError] = useState<string>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const config = configFromForm(fields, values);
      dataOf(
        await operatorClient(token).updateInstance({
          params: { id: instance.id },
          body: { name, ...(Object.keys(config).length > 0 ? { config } : {}) },
        }),
        200,
      );
      onSaved();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <form onSubmit={submit} aria-label={`Edit ${instance.name}`}>
      <div class="field">
        <label for={`edit-${instance.id}-name`}>Name</label>
        <input
          id={`edit-${instance.id}-name`}
          required
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </div>
      <ConfigFormFields
        idPrefix={`edit-${instance.id}`}
        fields={fields}
        values={values}
        stored={start.stored}
        onChange={(field, value) => setValues({ ...values, [field]: value })}
      />
      <button type="submit">Save {instance.name}</button>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}
