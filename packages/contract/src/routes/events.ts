import { z } from 'zod';
import { c } from '../contract-builder';
import { EventStreamQuery } from '../event-types';
import type { RouteMetadata } from '../route-metadata';
import { commonResponses, errors } from '../schemas/common';
import { EventStreamHeaders } from '../schemas/event-stream';

const metadata = { tag: 'Events' } satisfies RouteMetadata;

/** The live event stream (`GET /v1/events`, Server-Sent Events). */
export const eventsContract = c.router(
  {
    stream: {
      method: 'GET',
      path: '/v1/events',
      query: EventStreamQuery,
      headers: EventStreamHeaders,
      summary: 'Stream events (Server-Sent Events)',
      description: [
        'A `text/event-stream` of the customer’s events as they happen. Each event is one frame:',
        '`id: <event id>`, `event: <event type>`, `data: <the event as JSON>` (the same body a webhook receives: the `Event` schema), then a blank line.',
        'A comment line `: heartbeat` is sent every 15 seconds to keep the connection open.',
        'Filter with `events` (comma-separated types, or `*`); an unknown type answers 400 `VALIDATION_ERROR` naming it.',
        'Several subscribers on one key each receive every event.',
        'Without `Last-Event-ID` nothing is replayed. With it (a reconnect), the events recorded after that id are sent first, within the replay window (5 minutes by default); an id the server cannot resume from gets a `stream.gap` frame (no `id:`, data: the `EventStreamGap` schema) before the live events.',
        '`whatsapp.status` is delivered on this stream only. A reader too slow to keep up is disconnected.',
      ].join(' '),
      responses: {
        200: c.otherResponse({ contentType: 'text/event-stream', body: z.string() }),
        ...errors('VALIDATION_ERROR'),
      },
      metadata,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
