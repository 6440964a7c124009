import { type EventType, FLAT_EVENT_TYPES, SwitchboardEvent } from '@switchboard/contract';
import type { NewEvent } from './event-recorder';

/** Fields of a {@link NewEvent} that steer recording and are not part of the body. */
const ROUTING_FIELDS = ['customerId', 'type', 'correlationId', 'callbackUrl', 'messageId'] as const;

/** Thrown when code tries to emit an event the contract does not allow: a programming error. */
export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
}

/**
 * Whether event bodies are validated against the contract: outside production. The check guards
 * the server's own code, and the whole test suite runs it on every event it emits, including that
 * the body as built serializes to the very bytes of the validated one, which is what production
 * sends without validating.
 */
const VALIDATE = process.env.NODE_ENV !== 'production';

function isFlat(type: EventType): boolean {
  return (FLAT_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * Builds the body receivers get and serializes it once: the envelope `{id, type, timestamp, data}`,
 * or for FaceTime the flat body `{type, eventId, …}`. Outside production it is first validated
 * against the contract's `SwitchboardEvent`, and must serialize to the same bytes as the parsed
 * value (exactly the contract's fields, in the contract's order): so production, which skips the
 * validation, sends what the contract says.
 *
 * @throws {InvalidEventError} when the event does not match its schema, or is not built in it.
 * @example serializeEvent({ ...event, id: 'evt_…' }, new Date()) // '{"id":"evt_…","type":…}'
 */
export function serializeEvent(event: NewEvent, id: string, timestamp: Date): string {
  const fields: Record<string, unknown> = { ...event };
  for (const key of ROUTING_FIELDS) delete fields[key];
  const body = isFlat(event.type)
    ? { type: event.type, eventId: id, ...fields }
    : { id, type: event.type, timestamp: timestamp.toISOString(), data: fields.data };
  const built = JSON.stringify(body);
  if (!VALIDATE) return built;
  const parsed = SwitchboardEvent.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new InvalidEventError(`refusing to emit a malformed ${event.type} event: ${problems}`);
  }
  const validated = JSON.stringify(parsed.data);
  if (built !== validated) {
    throw new InvalidEventError(
      `a ${event.type} event is not built in the contract's shape: ${built} != ${validated}`,
    );
  }
  return validated;
}
