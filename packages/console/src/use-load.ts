import { useCallback, useEffect, useState } from 'preact/hooks';

/** What a view loaded: the value, or why it failed, and how to load it again. */
export interface Loaded<T> {
  /** The value, once loaded. */
  value: T | undefined;
  /** The error message, when loading failed. */
  error: string | undefined;
  /** Loads again (after an action changed what is shown). */
  reload: () => void;
}

/** The message of anything thrown, with the API's error code when it carries one (the SDK's). */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.startsWith(code)
    ? `${code}: ${error.message}`
    : error.message;
}

/** Loads `load()` when `deps` change; the latest answer wins. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ value?: T; error?: string }>({});
  const [round, setRound] = useState(0);
  // The caller names what `load` reads in `deps`.
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && setState({ value }),
      (error: unknown) => current && setState({ error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { value: state.value, error: state.error, reload };
}
