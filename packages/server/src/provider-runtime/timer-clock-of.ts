import { systemTimerClock, type TimerClock } from '@switchboard/provider-kit';
import type { Clock } from '../clock';

/**
 * The app's clock as a {@link TimerClock} for providers: a clock that can already schedule (a
 * `ManualTimerClock` in tests) is used as is; otherwise time is read from `clock` and timers run
 * on the real event loop, so an injected clock moves timestamps without stalling the simulator.
 */
export function timerClockOf(clock: Clock): TimerClock {
  const candidate = clock as Partial<TimerClock>;
  if (typeof candidate.schedule === 'function') return clock as TimerClock;
  return { now: () => clock.now(), schedule: systemTimerClock.schedule };
}
