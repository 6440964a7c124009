import type { Switchboard, SwitchboardEventOf } from '@switchboard/sdk';

/** The event types that tell a message's story, from accepted to its final status. */
export const TRACKED_EVENTS = [
  'message.queued',
  'message.sent',
  'message.fallback',
  'message.delivered',
  'message.failed',
] as const;

/** One event of the tracked message. */
export type TrackedEvent = SwitchboardEventOf<(typeof TRACKED_EVENTS)[number]>;

/** What to send, and how long to wait for the outcome. */
export interface SendAndTrackOptions {
  /** The recipient: E.164 phone number or e-mail style address. */
  to: string;
  /** The message text. */
  text: string;
  /** Called with each event of the message as it arrives. */
  onEvent?: ((event: TrackedEvent) => void) | undefined;
  /** Milliseconds to wait for `delivered` or `failed`; default 60 000. */
  timeoutMs?: number | undefined;
}

/** How the message ended. */
export interface SendAndTrackResult {
  /** The message's id (`msg_…`). */
  messageId: string;
  /** Its final status. */
  status: 'delivered' | 'failed';
  /** Every event of the message, in the order they arrived. */
  events: TrackedEvent[];
}

/**
 * Sends a message and follows it over the event stream until it is delivered or failed.
 *
 * The stream is opened first and the message sent once the server has subscribed it (`onOpen`),
 * so no event of the message can be missed: events that arrive while the send is still being
 * answered simply wait in the stream until they are read.
 * @example
 * const result = await sendAndTrack(new Switchboard(), { to: '+12125550104', text: 'Hi' });
 */
export async function sendAndTrack(
  client: Switchboard,
  options: SendAndTrackOptions,
): Promise<SendAndTrackResult> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let markOpen = () => {};
  const opened = new Promise<void>((resolve) => {
    markOpen = resolve;
  });
  const stream = client.events.stream({
    events: TRACKED_EVENTS,
    signal: controller.signal,
    onOpen: () => markOpen(),
  });
  const iterator = stream[Symbol.asyncIterator]();
  try {
    // Asking for the first event opens the connection; a connection error rejects it.
    const first = iterator.next();
    await Promise.race([opened, first]);

    const { id: messageId } = await client.messages.send({
      to: options.to,
      content: { text: options.text },
    });

    const events: TrackedEvent[] = [];
    for (let next = await first; !next.done; next = await iterator.next()) {
      const event = next.value;
      if (event.data.messageId !== messageId) continue; // another message of the account
      events.push(event);
      options.onEvent?.(event);
      if (event.type === 'message.delivered') return { messageId, status: 'delivered', events };
      if (event.type === 'message.failed') return { messageId, status: 'failed', events };
    }
    throw new Error(
      controller.signal.aborted
        ? `No final status for ${messageId} within ${timeoutMs} ms.`
        : 'The event stream ended.',
    );
  } finally {
    clearTimeout(timer);
    controller.abort();
    await iterator.return?.();
  }
}
