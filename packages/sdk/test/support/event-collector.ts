import { expect } from 'vitest';
import type { Switchboard, SwitchboardEvent } from '../../src/index';

/** Every event of a client's stream since it was opened, and a way to wait for one. */
export interface EventCollector {
  /** The events received so far, in order. */
  events: SwitchboardEvent[];
  /** Resolves with the first event (received or to come) that `matches`, failing after 5 s. */
  waitFor<Event extends SwitchboardEvent>(
    matches: (event: SwitchboardEvent) => event is Event,
  ): Promise<Event>;
  waitFor(matches: (event: SwitchboardEvent) => boolean): Promise<SwitchboardEvent>;
  /** Closes the stream. */
  close(): Promise<void>;
}

/** Opens `client.events.stream` and resolves once the server subscribed it. */
export async function collectEvents(client: Switchboard): Promise<EventCollector> {
  const controller = new AbortController();
  const events: SwitchboardEvent[] = [];
  let markOpen = () => {};
  const opened = new Promise<void>((resolve) => {
    markOpen = resolve;
  });
  const reading = (async () => {
    for await (const event of client.events.stream({
      signal: controller.signal,
      onOpen: () => markOpen(),
    })) {
      events.push(event);
    }
  })();
  // A stream that fails before opening must fail the test rather than hang it.
  await Promise.race([opened, reading]);
  return {
    events,
    async waitFor(matches: (event: SwitchboardEvent) => boolean) {
      await expect.poll(() => events.some(matches), { timeout: 5_000 }).toBe(true);
      const found = events.find(matches);
      if (found === undefined) throw new Error('the event vanished');
      return found;
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}

/** A type guard for the event of one type that also passes `check`. */
export function ofType<Type extends SwitchboardEvent['type']>(
  type: Type,
  check: (event: Extract<SwitchboardEvent, { type: Type }>) => boolean = () => true,
): (event: SwitchboardEvent) => event is Extract<SwitchboardEvent, { type: Type }> {
  return (event): event is Extract<SwitchboardEvent, { type: Type }> =>
    event.type === type && check(event as Extract<SwitchboardEvent, { type: Type }>);
}
