import type { MessageService } from '../domain/messages/message-service';
import { PeriodicWorker } from './periodic-worker';

/**
 * The scheduler: every `SCHEDULER_INTERVAL_MS` (and once at start, for messages that fell due
 * while the server was down) it queues the scheduled messages that are due. Each is claimed with
 * a conditional update, so it is queued exactly once even when two schedulers race.
 */
export class MessageScheduler extends PeriodicWorker {
  /** A scheduler over the message service, checking every `intervalMs`. */
  constructor(messages: MessageService, intervalMs: number) {
    super({
      name: 'message-scheduler',
      intervalMs,
      run: () => messages.queueDueMessages(),
      failure: 'scheduler run failed',
    });
  }
}
