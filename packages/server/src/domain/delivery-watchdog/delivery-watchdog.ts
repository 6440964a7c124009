import type { Channel } from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { InstanceRecord } from '../../store/instance-repository';
import type { SendOutcomeRecord } from '../../store/message-repository';
import type { Store } from '../../store/store';
import { AutoPause } from './auto-pause';
import { judgeDeliveries, type NumberDeliveryHealth } from './delivery-judgement';
import { pausedNumbersOf, pauseWarningOf } from './number-pauses';
import { watchdogSettingsOf } from './watchdog-settings';

/** How far back the watchdog reads sends: a number quiet for a day has no verdict. */
const LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** The most sends read per instance and evaluation. */
const MAX_SENDS = 5000;

/** What a stalled channel probably means, for the warning. */
const LIKELY_CAUSE: Record<Channel, string> = {
  imessage: 'the Apple ID may be flagged',
  whatsapp: 'the number may be restricted or banned by WhatsApp',
  sms: 'carriers may be filtering the number',
};

/** A verdict on `/metrics`, with whether the number's sends on the channel are paused. */
interface ReportedDeliveryHealth extends NumberDeliveryHealth {
  /** True while the watchdog's pause holds the number's sends on the channel. */
  paused: boolean;
}

/** The verdicts of one instance. */
export interface InstanceDeliveryReport {
  /** The instance's name. */
  instance: string;
  /** One verdict per sender number and channel with recent sends or a pause. */
  numbers: ReportedDeliveryHealth[];
}

/** The health warning of a stalling number. */
function warningOf(health: NumberDeliveryHealth): string {
  const minutes = Math.round(health.windowSeconds / 60);
  return `deliveries stalling on ${health.number} (${health.channel}): ${health.undelivered} of the last ${health.judged} sends not delivered within ${minutes} min: ${LIKELY_CAUSE[health.channel]}`;
}

/**
 * The delivery watchdog: recomputes, from the stored messages, how the recent sends of each
 * instance's numbers fared (so its state survives restarts and is shared by every process), and
 * turns stalling numbers into health warnings and metrics. Where the operator opted in
 * (`autoPause`), each health check also pauses a stalling number's sends on the channel.
 */
export class DeliveryWatchdog {
  readonly #autoPause: AutoPause;

  /** A watchdog over `store`, judging at `clock`'s time. */
  constructor(
    private readonly store: Pick<Store, 'messages' | 'instances' | 'numbers' | 'sendPolicies'>,
    private readonly clock: Clock,
  ) {
    this.#autoPause = new AutoPause(store);
  }

  /** The verdicts of one instance's numbers; none when its watchdog is off. */
  async evaluate(instance: InstanceRecord): Promise<NumberDeliveryHealth[]> {
    return (await this.#judge(instance)).verdicts;
  }

  /**
   * The health warnings of an instance: one per stalling number and channel, and one per paused
   * one (saying how to resume it). With `autoPause` on, pauses the stalling numbers first.
   */
  async warningsOf(instanceId: string): Promise<string[]> {
    const instance = await this.store.instances.findById(instanceId);
    if (!instance || instance.deletedAt) return [];
    const { sends, verdicts } = await this.#judge(instance);
    const settings = watchdogSettingsOf(instance.config);
    if (settings.enabled) {
      await this.#autoPause.pauseStalling(sends, verdicts, settings, this.clock.now(), warningOf);
    }
    const paused = await pausedNumbersOf(this.store, instanceId);
    return [...verdicts.filter((h) => h.stalling).map(warningOf), ...paused.map(pauseWarningOf)];
  }

  /** The verdicts of every instance, with its paused numbers (for `/metrics`). */
  async report(): Promise<InstanceDeliveryReport[]> {
    const instances = await this.store.instances.list();
    return Promise.all(
      instances.map(async (instance) => {
        const verdicts = await this.evaluate(instance);
        const paused = await pausedNumbersOf(this.store, instance.id);
        const isPaused = (number: string, channel: Channel) =>
          paused.some((p) => p.number === number && p.channel === channel);
        const numbers: ReportedDeliveryHealth[] = verdicts.map((health) => ({
          ...health,
          paused: isPaused(health.number, health.channel),
        }));
        for (const pause of paused) {
          if (numbers.some((h) => h.number === pause.number && h.channel === pause.channel))
            continue;
          numbers.push(quietPaused(pause.number, pause.channel, instance));
        }
        return { instance: instance.name, numbers };
      }),
    );
  }

  /** The instance's recent sends and the verdicts on them; none when its watchdog is off. */
  async #judge(
    instance: InstanceRecord,
  ): Promise<{ sends: SendOutcomeRecord[]; verdicts: NumberDeliveryHealth[] }> {
    const settings = watchdogSettingsOf(instance.config);
    if (!settings.enabled) return { sends: [], verdicts: [] };
    const now = this.clock.now();
    const sends = await this.store.messages.recentSends(
      instance.id,
      ['sent', 'delivered', 'read'],
      new Date(now - LOOKBACK_MS),
      MAX_SENDS,
    );
    return { sends, verdicts: judgeDeliveries(sends, settings, now) };
  }
}

/** A paused number with no recent sends judged (its sends are held): nothing judged, paused. */
function quietPaused(
  number: string,
  channel: Channel,
  instance: InstanceRecord,
): ReportedDeliveryHealth {
  return {
    number,
    channel,
    judged: 0,
    undelivered: 0,
    share: 0,
    stalling: false,
    windowSeconds: watchdogSettingsOf(instance.config).windowSeconds[channel],
    paused: true,
  };
}
