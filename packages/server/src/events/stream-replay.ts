import type { EventStreamGap } from '@switchboard/contract';
import type { Clock } from '../clock';
import type { EventRepository } from '../store/event-repository';
import type { RecordedEvent } from './event-recorder';
import { toRecorded } from './event-service';

/** What a stream opened with `Last-Event-ID` sends first: the events after it, or a gap. */
export type ReplayPlan =
  | { kind: 'replay'; events: RecordedEvent[] }
  | { kind: 'gap'; gap: EventStreamGap };

/** The most events one resume replays; more than that counts as outside the window. */
const REPLAY_LIMIT = 10_000;

/**
 * The replay of an event stream that reconnects with `Last-Event-ID`: the customer's events
 * recorded after that one, from the event log, when it is within the replay window
 * (`SSE_REPLAY_WINDOW_MS`); otherwise a `stream.gap` saying why nothing can be replayed.
 */
export class StreamReplay {
  /** Replays from `events`, `windowMs` back from the clock's now. */
  constructor(
    private readonly events: Pick<EventRepository, 'findById' | 'listAfter'>,
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  /** What follows `lastEventId` for the customer. */
  async after(customerId: string, lastEventId: string): Promise<ReplayPlan> {
    const gap = (reason: EventStreamGap['reason']): ReplayPlan => ({
      kind: 'gap',
      gap: {
        type: 'stream.gap',
        lastEventId,
        reason,
        replayWindowSeconds: Math.floor(this.windowMs / 1000),
      },
    });
    const last = await this.events.findById(customerId, lastEventId);
    if (!last) return gap('unknown_event');
    if (last.createdAt.getTime() < this.clock.now() - this.windowMs) return gap('outside_window');
    const rows = await this.events.listAfter(customerId, last, REPLAY_LIMIT + 1);
    if (rows.length > REPLAY_LIMIT) return gap('outside_window');
    return { kind: 'replay', events: rows.map(toRecorded) };
  }
}
