import { z } from 'zod';
import { component, doc } from '../schema-annotations';

/** The longest `Last-Event-ID` accepted (event ids are `evt_` + a UUID). */
const EVENT_ID_MAX_LENGTH = 200;

/** `GET /v1/events` headers. */
export const EventStreamHeaders = z.object({
  'last-event-id': doc(z.string().max(EVENT_ID_MAX_LENGTH).optional(), {
    description:
      'Resume after this event: the id of the last event a previous connection received (browsers’ `EventSource` and the SDK send it when they reconnect). The events recorded after it are sent first, then the live ones. The id must be within the replay window (`SSE_REPLAY_WINDOW_MS`, 5 minutes by default); otherwise a `stream.gap` frame says that events were missed, and the stream goes on live.',
    example: 'evt_0193a8f4-1b2c-7d3e-8f4a-5b6c7d8e9f0a',
  }),
});

/** Why a stream could not resume after `Last-Event-ID`. */
export const EventStreamGapReason = z.enum(['unknown_event', 'outside_window']);

/**
 * The data of the `stream.gap` frame: sent first, without an `id:`, when a stream opened with
 * `Last-Event-ID` cannot replay what came after it.
 */
export const EventStreamGap = component(
  'EventStreamGap',
  z.object({
    type: z.literal('stream.gap'),
    lastEventId: doc(z.string(), {
      description: 'The `Last-Event-ID` the stream was opened with.',
    }),
    reason: doc(EventStreamGapReason, {
      description:
        '`unknown_event`: no event of yours has that id; `outside_window`: it is older than the replay window.',
    }),
    replayWindowSeconds: doc(z.number().int().nonnegative(), {
      description: 'How far back this server replays.',
      example: 300,
    }),
  }),
  {
    description:
      'Events were missed: the stream could not resume after `Last-Event-ID`. Fetch what you need from the API (`GET /v1/messages`, `GET /v1/webhooks/{id}/deliveries`), then carry on with the live events that follow.',
    example: {
      type: 'stream.gap',
      lastEventId: 'evt_0193a8f4-1b2c-7d3e-8f4a-5b6c7d8e9f0a',
      reason: 'outside_window',
      replayWindowSeconds: 300,
    },
  },
);
/** The data of a `stream.gap` frame. */
export type EventStreamGap = z.infer<typeof EventStreamGap>;
