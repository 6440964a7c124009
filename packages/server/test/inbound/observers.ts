import type { SwitchboardEvent } from '@switchboard/contract';
import { createParser } from 'eventsource-parser';
import type { FastifyInstance } from 'fastify';
import { expect, onTestFinished } from 'vitest';
import {
  type LoopbackReceiver,
  startLoopbackReceiver,
} from '../../src/webhooks/test-support/loopback-receiver';
import { eventually, type TestCustomer } from '../chats/chat-test-app';

/** Where a customer's events are observed: a webhook receiver and an event stream. */
export interface EventObservers {
  /** Events delivered to the customer's `*` webhook, parsed. */
  webhook(): SwitchboardEvent[];
  /** Events received on the customer's `GET /v1/events` stream. */
  stream: SwitchboardEvent[];
  /**
   * Waits until an event matching `match` arrived both by webhook and on the stream; answers the
   * webhook copy after checking both copies are the same bytes' worth.
   */
  both<T extends SwitchboardEvent>(match: (event: SwitchboardEvent) => event is T): Promise<T>;
}

/** The id receivers deduplicate on: the envelope id, or a flat FaceTime body's eventId. */
export function eventIdOf(event: SwitchboardEvent): string {
  return 'eventId' in event ? event.eventId : event.id;
}

/**
 * Makes `app` listen on a loopback port, registers a `*` webhook of `customer` pointing at a new
 * loopback receiver and opens the customer's event stream.
 */
export async function observe(
  app: FastifyInstance,
  customer: TestCustomer,
): Promise<EventObservers> {
  const origin = await listening(app);
  const receiver: LoopbackReceiver = await startLoopbackReceiver();
  onTestFinished(() => receiver.close());
  await customer.ok(
    'POST',
    '/v1/webhooks',
    { url: `${receiver.origin}/hooks`, events: ['*'] },
    201,
  );
  const stream = await openStream(origin, customer.key);
  const webhook = () =>
    receiver.requests.map(
      (request) => JSON.parse(request.body.toString('utf8')) as SwitchboardEvent,
    );
  return {
    webhook,
    stream,
    both: async (match) => {
      const delivered = await eventually(() => webhook().find(match));
      const streamed = await eventually(() => stream.find(match));
      expect(eventIdOf(streamed)).toBe(eventIdOf(delivered));
      expect(streamed).toEqual(delivered);
      return delivered;
    },
  };
}

async function listening(app: FastifyInstance): Promise<string> {
  const address = app.server.address();
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const bound = app.server.address();
  if (!bound || typeof bound !== 'object') throw new Error('the app is not listening');
  return `http://127.0.0.1:${bound.port}`;
}

/** Opens `GET /v1/events` and collects every event; closed when the test ends. */
export async function openStream(origin: string, key: string): Promise<SwitchboardEvent[]> {
  const controller = new AbortController();
  onTestFinished(() => controller.abort());
  const response = await fetch(`${origin}/v1/events`, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) {
    throw new Error(`event stream answered ${response.status}`);
  }
  const events: SwitchboardEvent[] = [];
  const parser = createParser({
    onEvent: (message) => events.push(JSON.parse(message.data) as SwitchboardEvent),
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
      // Aborted when the test ended.
    }
  })();
  return events;
}

/** A type guard for events of `type` whose `data` (or flat body) satisfies `where`. */
export function ofType<T extends SwitchboardEvent['type']>(
  type: T,
  where: (event: Extract<SwitchboardEvent, { type: T }>) => boolean = () => true,
): (event: SwitchboardEvent) => event is Extract<SwitchboardEvent, { type: T }> {
  return (event): event is Extract<SwitchboardEvent, { type: T }> =>
    event.type === type && where(event as Extract<SwitchboardEvent, { type: T }>);
}
