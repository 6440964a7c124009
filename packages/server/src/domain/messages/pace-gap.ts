/** A sender's rate and jitter (of its instance's effective pacing). */
interface Pace {
  /** Messages per second per sender number; 0: no limit. */
  perSecond: number;
  /** How far each gap strays from the interval at random, 0..1. */
  jitter: number;
}

/** A source of random numbers in `[0, 1)`, as `Math.random` (injected in tests). */
export type RandomSource = () => number;

/**
 * The gap a sender's next message keeps behind the one it follows: the interval
 * (`1000 / perSecond` ms) stretched or shrunk at random, drawn evenly in
 * `[1 - jitter, 1 + jitter]` × the interval. The draws average the interval, so the rate holds
 * over many sends, but two gaps are never alike: a fixed interval marks a number as a bot.
 * `0` without a rate.
 */
export function paceGapMs(pacing: Pace, random: RandomSource): number {
  if (pacing.perSecond <= 0) return 0;
  const interval = 1000 / pacing.perSecond;
  const draw = Math.min(Math.max(random(), 0), 1);
  return interval * (1 + pacing.jitter * (2 * draw - 1));
}

/**
 * The least gap between two sends of a sender as they reach the upstream: the shortest gap the
 * jitter may draw, `(1 - jitter)` × the interval. The departure book holds this floor, so a send
 * held up after its slot never brings the next closer than the pacing allows, while the jittered
 * gaps of the start slots pass through it unchanged.
 */
export function departureGapMs(pacing: Pace): number {
  if (pacing.perSecond <= 0) return 0;
  return (1000 / pacing.perSecond) * (1 - pacing.jitter);
}
