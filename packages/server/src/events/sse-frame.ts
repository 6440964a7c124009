import type { RecordedEvent } from './event-recorder';

/**
 * One Server-Sent Events frame of an event: `id:` (the event id; FaceTime's `eventId`), `event:`
 * (the type) and `data:` (the exact payload webhooks get: JSON has no raw newlines, so it fits
 * one `data:` line).
 */
export function eventFrame(event: RecordedEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${event.payload}\n\n`;
}

/** The keep-alive comment, sent every `SSE_HEARTBEAT_MS`. */
export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/** The first bytes of a stream: a comment, so clients and proxies see the response start now. */
export const OPENING_FRAME = ': connected\n\n';
