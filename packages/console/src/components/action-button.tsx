import { useState } from 'preact/hooks';
import { messageOf } from '../use-load';

/** A button that runs an API action, then reports its failure or calls `onDone`. */
export function ActionButton({
  label,
  action,
  onDone,
}: {
  label: string;
  action: () => Promise<unknown>;
  onDone?: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      onDone?.();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" disabled={busy} onClick={run}>
        {label}
      </button>
      {error && (
        <span role="alert" class="error">
          {' '}
          {error}
        </span>
      )}
    </>
  );
}
