import type { EventStreamGap } from '@switchboard/contract';
import type { RecordedEvent } from './event-recorder';

/**
 * One Server-Sent Events frame of an event: `id:` (the event id; FaceTime's `eventId`), `event:`
 * (the type) and `data:` (the exact payload webhooks get: JSON has no raw newlines, so it fits
 * one `data:` line).
 */
export function eventFrame(event: RecordedEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${event.payload}\n\n`;
}

/**
 * The bytes of {@link eventFrame}, encoded once: an event goes to every stream of its customer,
 * and a `Buffer` is written to each socket as is (a string would be encoded again per stream).
 */
export function eventFrameBytes(event: RecordedEvent): Buffer {
  return Buffer.from(eventFrame(event), 'utf8');
}

/**
 * The `stream.gap` frame: events were missed. No `id:` line, so a client keeps the id it had
 * (and a later reconnect still names the last event it really received).
 */
export function gapFrameBytes(gap: EventStreamGap): Buffer {
  return Buffer.from(`event: ${gap.type}\ndata: ${JSON.stringify(gap)}\n\n`, 'utf8');
}

/** The keep-alive comment, sent every `SSE_HEARTBEAT_MS`. */
export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/** The first bytes of a stream: a comment, so clients and proxies see the response start now. */
export const OPENING_FRAME = ': connected\n\n';
