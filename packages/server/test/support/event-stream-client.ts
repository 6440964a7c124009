import type { SwitchboardEvent } from '@switchboard/contract';
import { createParser } from 'eventsource-parser';
import { onTestFinished } from 'vitest';

/** A subscription to `GET /v1/events` over real HTTP. */
export interface EventStreamClient {
  /** Every event received so far, in order. */
  events: SwitchboardEvent[];
  /** The events about one message, in order. */
  eventsOf(messageId: string): SwitchboardEvent[];
  /** Closes the stream. */
  close(): void;
}

/**
 * Opens the event stream of the customer whose key is `key` on a listening server at `baseUrl`,
 * and resolves once the stream answered (events emitted from then on are received).
 */
export async function openEventStream(baseUrl: string, key: string): Promise<EventStreamClient> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/v1/events`, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) {
    throw new Error(`event stream answered ${response.status}`);
  }
  const events: SwitchboardEvent[] = [];
  const parser = createParser({
    onEvent(message) {
      events.push(JSON.parse(message.data) as SwitchboardEvent);
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        parser.feed(value);
      }
    } catch {
      // Aborted by close().
    }
  })();
  const close = () => controller.abort();
  onTestFinished(close);
  return {
    events,
    eventsOf: (messageId) =>
      events.filter(
        (event) =>
          'data' in event && (event.data as { messageId?: string }).messageId === messageId,
      ),
    close,
  };
}
