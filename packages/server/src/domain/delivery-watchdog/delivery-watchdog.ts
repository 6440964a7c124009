import type { Channel } from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { InstanceRecord } from '../../store/instance-repository';
import type { Store } from '../../store/store';
import { judgeDeliveries, type NumberDeliveryHealth } from './delivery-judgement';
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

/** The verdicts of one instance. */
export interface InstanceDeliveryReport {
  /** The instance's name. */
  instance: string;
  /** One verdict per sender number and channel with recent sends. */
  numbers: NumberDeliveryHealth[];
}

/** The health warning of a stalling number. */
function warningOf(health: NumberDeliveryHealth): string {
  const minutes = Math.round(health.windowSeconds / 60);
  return `deliveries stalling on ${health.number} (${health.channel}): ${health.undelivered} of the last ${health.judged} sends not delivered within ${minutes} min: ${LIKELY_CAUSE[health.channel]}`;
}

/**
 * The delivery watchdog: recomputes, from the stored messages, how the recent sends of each
 * instance's numbers fared (so its state survives restarts and is shared by every process), and
 * turns stalling numbers into health warnings and metrics.
 */
export class DeliveryWatchdog {
  /** A watchdog over `store`, judging at `clock`'s time. */
  constructor(
    private readonly store: Pick<Store, 'messages' | 'instances'>,
    private readonly clock: Clock,
  ) {}

  /** The verdicts of one instance's numbers; none when its watchdog is off. */
  async evaluate(instance: InstanceRecord): Promise<NumberDeliveryHealth[]> {
    const settings = watchdogSettingsOf(instance.config);
    if (!settings.enabled) return [];
    const now = this.clock.now();
    const sends = await this.store.messages.recentSends(
      instance.id,
      ['sent', 'delivered', 'read'],
      new Date(now - LOOKBACK_MS),
      MAX_SENDS,
    );
    return judgeDeliveries(sends, settings, now);
  }

  /** The health warnings of an instance: one per stalling number and channel. */
  async warningsOf(instanceId: string): Promise<string[]> {
    const instance = await this.store.instances.findById(instanceId);
    if (!instance || instance.deletedAt) return [];
    return (await this.evaluate(instance)).filter((h) => h.stalling).map(warningOf);
  }

  /** The verdicts of every instance (for `/metrics`). */
  async report(): Promise<InstanceDeliveryReport[]> {
    const instances = await this.store.instances.list();
    return Promise.all(
      instances.map(async (instance) => ({
        instance: instance.name,
        numbers: await this.evaluate(instance),
      })),
    );
  }
}
