import { type EventType, FLAT_EVENT_TYPES, SwitchboardEvent } from '@switchboard/contract';
import type { NewEvent } from './event-recorder';

/** Fields of a {@link NewEvent} that steer recording and are not part of the body. */
const ROUTING_FIELDS = ['customerId', 'type', 'correlationId', 'callbackUrl', 'messageId'] as const;

/** Thrown when code tries to emit an event the contract does not allow: a programming error. */
export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
}

function isFlat(type: EventType): boolean {
  return (FLAT_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * Builds the body receivers get, validates it against the contract's `SwitchboardEvent` and
 * serializes it once: the envelope `{id, type, timestamp, data}`, or for FaceTime the flat body
 * `{type, eventId, …}`. Serializes the parsed value, so the bytes hold exactly the contract's
 * fields, in the contract's order.
 *
 * @throws {InvalidEventError} when the event does not match its schema.
 * @example serializeEvent({ ...event, id: 'evt_…' }, new Date()) // '{"id":"evt_…","type":…}'
 */
export function serializeEvent(event: NewEvent, id: string, timestamp: Date): string {
  const fields: Record<string, unknown> = { ...event };
  for (const key of ROUTING_FIELDS) delete fields[key];
  const body = isFlat(event.type)
    ? { type: event.type, eventId: id, ...fields }
    : { id, type: event.type, timestamp: timestamp.toISOString(), data: fields.data };
  const parsed = SwitchboardEvent.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new InvalidEventError(`refusing to emit a malformed ${event.type} event: ${problems}`);
  }
  return JSON.stringify(parsed.data);
}
