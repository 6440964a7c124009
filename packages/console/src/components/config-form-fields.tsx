import type { ConfigField } from '../config-fields';

/**
 * The inputs of a provider's config fields (secrets as password inputs, never prefilled). On an
 * edit form, `stored` holds the masked secrets the API answered: shown beside their field, kept
 * when the field is left blank; `idPrefix` keeps the ids of several forms apart.
 */
export function ConfigFormFields({
  fields,
  values,
  onChange,
  stored = {},
  idPrefix = 'config',
}: {
  fields: readonly ConfigField[];
  values: Record<string, string>;
  onChange: (name: string, value: string) => void;
  stored?: Record<string, string>;
  idPrefix?: string;
}) {
  return (
    <>
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const masked = field.secret ? stored[field.name] : undefined;
        const hint = `${id}-hint`;
        const common = {
          id,
          'aria-describedby': hint,
          value: values[field.name] ?? '',
          onInput: (event: Event) =>
            onChange(field.name, (event.currentTarget as HTMLInputElement).value),
        };
        const choices = field.kind === 'boolean' ? ['true', 'false'] : field.options;
        return (
          <div class="field" key={field.name}>
            <label for={id}>
              {field.name}
              {field.required ? ' (required)' : ''}
            </label>
            {field.kind === 'choice' || field.kind === 'boolean' ? (
              <select {...common}>
                <option value="">(default)</option>
                {choices.map((choice) => (
                  <option key={choice} value={choice}>
                    {choice}
                  </option>
                ))}
              </select>
            ) : field.secret ? (
              <input
                {...common}
                type="password"
                autocomplete="off"
                required={field.required && masked === undefined}
              />
            ) : field.kind === 'number' ? (
              <input {...common} type="number" autocomplete="off" required={field.required} />
            ) : (
              <input {...common} type="text" autocomplete="off" required={field.required} />
            )}
            <small id={hint}>
              {field.description}
              {masked === undefined ? '' : ` Stored: ${masked} (leave blank to keep it).`}
            </small>
          </div>
        );
      })}
    </>
  );
}
