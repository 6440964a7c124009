import { EVENT_TYPES, type EventType } from '@switchboard/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import { customerClient } from '../clients';
import { messageOf } from '../use-load';

/** Events the tail keeps on screen, newest first. */
const KEPT = 200;

/** One event as the tail shows it. */
interface TailEntry {
  id: string;
  type: string;
  at: string;
  data: string;
}

/** How the tail shows an event: the envelope `{id, type, timestamp, data}`, or a flat body. */
function entryOf(event: Record<string, unknown>, received: number): TailEntry {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    id: text(event.id) || `received-${received}`,
    type: text(event.type) || text(event.event) || 'event',
    at: text(event.timestamp),
    data: JSON.stringify('data' in event ? event.data : event, null, 2),
  };
}

/**
 * Follows `GET /v1/events` for `type` (every type when empty) through the SDK's SSE helper,
 * until the view changes; `onEvent` hears each event, `onState` the connection's state.
 */
function useEventStream(
  token: string,
  type: string,
  onEvent: (entry: TailEntry) => void,
  onState: (state: string) => void,
) {
  const listener = useRef(onEvent);
  listener.current = onEvent;
  useEffect(() => {
    const stop = new AbortController();
    onState('connecting');
    const stream = customerClient(token).events.stream({
      events: type ? [type as EventType] : '*',
      signal: stop.signal,
      onOpen: () => onState(type ? `connected, ${type} only` : 'connected, every type'),
    });
    (async () => {
      let received = 0;
      for await (const event of stream) {
        received += 1;
        listener.current(entryOf(event as unknown as Record<string, unknown>, received));
      }
    })().catch((error: unknown) => onState(`closed: ${messageOf(error)}`));
    return () => stop.abort();
  }, [token, type]);
}

/**
 * The customer's live events: filtered by type, pausable (what arrives while paused is held and
 * shown on resume), every string shown as text.
 */
export function LiveTailPage({ token }: { token: string }) {
  const [type, setType] = useState('');
  const [paused, setPaused] = useState(false);
  const [state, setState] = useState('connecting');
  const [shown, setShown] = useState<TailEntry[]>([]);
  const held = useRef<TailEntry[]>([]);
  const [heldCount, setHeldCount] = useState(0);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  useEventStream(
    token,
    type,
    (entry) => {
      if (pausedRef.current) {
        held.current = [entry, ...held.current].slice(0, KEPT);
        setHeldCount(held.current.length);
      } else setShown((list) => [entry, ...list].slice(0, KEPT));
    },
    setState,
  );
  const toggle = () => {
    if (paused) {
      const waiting = held.current;
      held.current = [];
      setHeldCount(0);
      setShown((list) => [...waiting, ...list].slice(0, KEPT));
    }
    setPaused(!paused);
  };
  return (
    <>
      <h1>Live tail</h1>
      <form class="filters" aria-label="Live tail" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for="tail-type">Event type</label>
          <select
            id="tail-type"
            value={type}
            onChange={(event) => {
              setType(event.currentTarget.value);
              setShown([]);
              held.current = [];
              setHeldCount(0);
            }}
          >
            <option value="">every type</option>
            {EVENT_TYPES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <button type="button" aria-pressed={paused} onClick={toggle}>
          {paused ? 'Resume' : 'Pause'}
        </button>
      </form>
      <p aria-live="polite">
        Stream {state}
        {paused ? ` — paused, ${heldCount} held` : ''}
      </p>
      <ol class="tail" aria-label="Events">
        {shown.map((entry) => (
          <li key={entry.id}>
            <p>
              <strong>{entry.type}</strong> · {entry.at} · {entry.id}
            </p>
            <pre class="json">{entry.data}</pre>
          </li>
        ))}
      </ol>
      {shown.length === 0 && <p>No event yet.</p>}
    </>
  );
}
