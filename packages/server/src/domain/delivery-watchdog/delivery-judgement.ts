import type { Channel } from '@switchboard/contract';
import type { SendOutcomeRecord } from '../../store/message-repository';
import type { WatchdogSettings } from './watchdog-settings';

/** How the recent sends of one sender number on one channel fared. */
export interface NumberDeliveryHealth {
  /** The sender number. */
  number: string;
  /** The channel. */
  channel: Channel;
  /** Sends judged: delivered, or `sent` for longer than the window (at most `sampleSize`). */
  judged: number;
  /** Of those, the ones not delivered within the window. */
  undelivered: number;
  /** `undelivered / judged`; 0 when nothing was judged. */
  share: number;
  /** True when `judged ≥ minSample` and `share ≥ threshold`. */
  stalling: boolean;
  /** The channel's delivery window, in seconds. */
  windowSeconds: number;
}

/** One send's verdict: delivered in time, not delivered in time, or too young to say. */
type Verdict = 'delivered' | 'undelivered' | 'pending';

function verdictOf(
  sentAt: number,
  deliveredAt: number | null,
  windowMs: number,
  now: number,
): Verdict {
  if (deliveredAt !== null && deliveredAt - sentAt <= windowMs) return 'delivered';
  return now - sentAt >= windowMs ? 'undelivered' : 'pending';
}

/**
 * Judges the recent sends of an instance, per sender number and channel: of the latest
 * `sampleSize` sends old enough to be judged (or already delivered), the share that reached
 * `sent` but not `delivered` within the channel's window. Pure: the sends and the time in, the
 * verdicts out.
 */
export function judgeDeliveries(
  sends: readonly SendOutcomeRecord[],
  settings: WatchdogSettings,
  now: number,
): NumberDeliveryHealth[] {
  const groups = new Map<string, { sentAt: number; verdict: Verdict }[]>();
  for (const send of sends) {
    const { sentAt } = send;
    if (sentAt === null) continue;
    const windowMs = settings.windowSeconds[send.channel] * 1000;
    const key = `${send.from}\u0000${send.channel}`;
    const group = groups.get(key) ?? [];
    group.push({ sentAt, verdict: verdictOf(sentAt, send.deliveredAt, windowMs, now) });
    groups.set(key, group);
  }
  return [...groups].map(([key, group]) => {
    const [number = '', channel = 'sms'] = key.split('\u0000') as [string, Channel];
    const sample = group
      .filter((send) => send.verdict !== 'pending')
      .sort((a, b) => b.sentAt - a.sentAt)
      .slice(0, settings.sampleSize);
    const undelivered = sample.filter((send) => send.verdict === 'undelivered').length;
    const share = sample.length === 0 ? 0 : undelivered / sample.length;
    return {
      number,
      channel,
      judged: sample.length,
      undelivered,
      share,
      stalling: sample.length >= settings.minSample && share >= settings.threshold,
      windowSeconds: settings.windowSeconds[channel],
    };
  });
}
