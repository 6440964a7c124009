/**
 * A labelled choice among `options` (a value shown as itself, or a value and its label), with an
 * "any" entry first when `any` is set.
 */
export function SelectField(props: {
  id: string;
  label: string;
  value: string;
  options: readonly (string | readonly [string, string])[];
  any?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      >
        {props.any && <option value="">any</option>}
        {props.options.map((option) => {
          const [value, label] = typeof option === 'string' ? [option, option] : option;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** A labelled text or time field. */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  type?: 'text' | 'datetime-local';
  placeholder?: string;
  onInput: (value: string) => void;
}) {
  const common = {
    id: props.id,
    value: props.value,
    onInput: (event: Event) => props.onInput((event.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.type === 'datetime-local' ? (
        <input {...common} type="datetime-local" />
      ) : (
        <input {...common} type="text" placeholder={props.placeholder} />
      )}
    </div>
  );
}
