import type { ComponentChildren } from 'preact';
import type { Loaded } from '../use-load';

/** Renders a loaded value, or its error, or a loading line. */
export function StatusView<T>({
  loaded,
  children,
}: {
  loaded: Loaded<T>;
  children: (value: T) => ComponentChildren;
}) {
  if (loaded.error !== undefined) {
    return (
      <p role="alert" class="error">
        {loaded.error}
      </p>
    );
  }
  if (loaded.value === undefined) return <p aria-live="polite">Loading…</p>;
  return <>{children(loaded.value)}</>;
}
