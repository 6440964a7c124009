import type { SwitchboardEvent } from '@switchboard/contract';
import { type LoopbackReceiver, startLoopbackReceiver } from '@switchboard/testing';
import type { FastifyInstance } from 'fastify';
import { expect, onTestFinished } from 'vitest';
import { eventually, type TestCustomer } from '../chats/chat-test-app';
import { openEventStream } from '../support/event-stream-client';
import { loopbackOrigin } from '../support/test-app';

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
  const origin = await loopbackOrigin(app);
  const receiver: LoopbackReceiver = await startLoopbackReceiver();
  onTestFinished(() => receiver.close());
  await customer.ok(
    'POST',
    '/v1/webhooks',
    { url: `${receiver.origin}/hooks`, events: ['*'] },
    201,
  );
  const { events: stream } = await openEventStream(origin, customer.key);
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

/** A type guard for events of `type` whose `data` (or flat body) satisfies `where`. */
export function ofType<T extends SwitchboardEvent['type']>(
  type: T,
  where: (event: Extract<SwitchboardEvent, { type: T }>) => boolean = () => true,
): (event: SwitchboardEvent) => event is Extract<SwitchboardEvent, { type: T }> {
  return (event): event is Extract<SwitchboardEvent, { type: T }> =>
    event.type === type && where(event as Extract<SwitchboardEvent, { type: T }>);
}
