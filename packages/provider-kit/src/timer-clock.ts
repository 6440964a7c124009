/**
 * A clock that can also run a task later. Providers take one so that their timed behaviour (the
 * simulator's lifecycle steps, QR rotation, upstream timeouts) runs in tests without real waits.
 */
export interface TimerClock {
  /** The current time in milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `task` once after `delayMs` milliseconds; the returned function cancels it. */
  schedule(delayMs: number, task: () => void): () => void;
}

/** The real clock. Its timers are unref'd: a pending simulated step never keeps a process alive. */
export const systemTimerClock: TimerClock = {
  now: () => Date.now(),
  schedule(delayMs, task) {
    const timer = setTimeout(task, Math.max(0, delayMs));
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** Waits `delayMs` on `clock`. */
export function sleep(clock: TimerClock, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    clock.schedule(delayMs, resolve);
  });
}
