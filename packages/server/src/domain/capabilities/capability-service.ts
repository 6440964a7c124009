import type { CapabilityRecord, Channel } from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { InstanceRecord } from '../../store/instance-repository';
import type { Store } from '../../store/store';
import type { AvailabilityCache, CachedAvailability } from './availability-cache';

const CHANNELS: readonly Channel[] = ['imessage', 'sms', 'whatsapp'];

/**
 * Capability checks (`GET /v1/capabilities/:phoneNumber`): each channel is answered by the first
 * of the customer's instances that serves it (the default number's instance first), through the
 * availability cache; FaceTime and Focus come from the iMessage instance.
 */
export class CapabilityService {
  /** The service over the store and the availability cache. */
  constructor(
    private readonly store: Store,
    private readonly availability: AvailabilityCache,
    private readonly clock: Clock,
  ) {}

  /**
   * The capability record of `phoneNumber` for the customer; `cached` is true when every answer
   * it is made of came from the cache.
   * @throws {DomainError} PROVIDER_TIMEOUT when a provider probe times out.
   */
  async check(customerId: string, phoneNumber: string): Promise<CapabilityRecord> {
    const instances = await this.#candidates(customerId);
    const answers = new Map<string, CachedAvailability>();
    const answerFor = async (channel: Channel): Promise<CachedAvailability | undefined> => {
      const instance = instances.find((candidate) => candidate.channels.includes(channel));
      if (!instance) return undefined;
      let answer = answers.get(instance.id);
      if (!answer) {
        answer = await this.availability.lookup(customerId, instance.id, phoneNumber);
        answers.set(instance.id, answer);
      }
      return answer;
    };
    const reach: Record<Channel, boolean> = { imessage: false, sms: false, whatsapp: false };
    for (const channel of CHANNELS) {
      reach[channel] = (await answerFor(channel))?.availability.channels[channel] === true;
    }
    const apple = (await answerFor('imessage'))?.availability;
    const focused = apple?.focused === true;
    const used = [...answers.values()];
    const lastChecked = used.length
      ? Math.min(...used.map((answer) => answer.availability.checkedAt))
      : this.clock.now();
    return {
      phoneNumber,
      capabilities: { ...reach, facetime: apple?.facetime === true },
      focused,
      ...(focused && apple?.focusMode !== undefined ? { focusMode: apple.focusMode } : {}),
      recommendedChannel: reach.imessage ? 'imessage' : 'sms',
      lastChecked: new Date(lastChecked).toISOString(),
      cached: used.length > 0 && used.every((answer) => answer.cached),
    };
  }

  /**
   * The instances that may answer for the customer: those serving its numbers, the default
   * number's first, and for each number the instances it hands single channels to
   * (`channelInstances`) before its own; every instance when the customer has no number yet.
   */
  async #candidates(customerId: string): Promise<InstanceRecord[]> {
    const numbers = await this.store.numbers.listByCustomer(customerId);
    const all = await this.store.instances.list();
    if (numbers.length === 0) return all;
    const order = [
      ...new Set(
        numbers.flatMap((number) => [...Object.values(number.channelInstances), number.instanceId]),
      ),
    ];
    return order.flatMap((id) => all.filter((instance) => instance.id === id));
  }
}
