import type {
  Channel,
  EffectiveSendPolicy,
  InstanceSendPolicy,
  NumberSendPolicy,
  SendPolicySettings,
} from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { SenderNumberView } from '../../store/number-repository';
import type { SendPolicyScope, StoredSendPolicy } from '../../store/send-policy-repository';
import type { Store } from '../../store/store';
import { DomainError } from '../domain-error';
import type { SendAllowance } from './send-allowance';
import type { SendDay } from './send-day';
import { defaultsFor } from './send-policy-defaults';

const CHANNELS: readonly Channel[] = ['imessage', 'sms', 'whatsapp'];

/** Where the "already warm" override and resumes are logged. */
export interface SendPolicyLogger {
  /** Logs at warn level: the override lifts a safeguard, so it stands out in the logs. */
  warn(details: Record<string, unknown>, message: string): void;
  /** Logs at info level (an operator's resume of paused sends). */
  info(details: Record<string, unknown>, message: string): void;
}

/** Dependencies of {@link SendPolicyService}. */
export interface SendPolicyServiceOptions {
  /** The store. */
  store: Store;
  /** The time source. */
  clock: Clock;
  /** The day boundary. */
  day: SendDay;
  /** Today's policies and counts. */
  allowance: SendAllowance;
}

/**
 * The send policies of numbers and instances as the operator sets them and as the customer
 * reads them: validated (no `inUseSince` after today), stored whole, shown with what holds today.
 */
export class SendPolicyService {
  /** A service over the given dependencies. */
  constructor(private readonly options: SendPolicyServiceOptions) {}

  /**
   * The customer's number's policy: as set, inherited and in effect today.
   * @throws {DomainError} NOT_FOUND when the customer has no such number.
   */
  async ofNumber(customerId: string, phoneNumber: string): Promise<NumberSendPolicy> {
    const number = await this.#number(customerId, phoneNumber);
    const { store } = this.options;
    const [own, inherited] = await Promise.all([
      store.sendPolicies.findPolicy('number', number.id),
      store.sendPolicies.findPolicy('instance', number.instanceId),
    ]);
    const effective: EffectiveSendPolicy[] = [];
    for (const channel of channelsOf(number))
      effective.push(await this.#effective(number, channel));
    return {
      phoneNumber: number.phoneNumber,
      instanceId: number.instanceId,
      policy: own ?? {},
      instancePolicy: inherited ?? {},
      effective,
    };
  }

  /**
   * Replaces the number's own policy; an "already warm" override is logged.
   * @throws {DomainError} NOT_FOUND (number), VALIDATION_ERROR (`inUseSince` after today).
   */
  async setForNumber(
    customerId: string,
    phoneNumber: string,
    settings: SendPolicySettings,
    log: SendPolicyLogger,
  ): Promise<NumberSendPolicy> {
    const number = await this.#number(customerId, phoneNumber);
    await this.#put('number', number.id, settings, log, { customerId, phoneNumber });
    return this.ofNumber(customerId, phoneNumber);
  }

  /**
   * Resumes the number's sends the delivery watchdog paused, on `channel` or on every channel
   * (decision 0682); a number not paused stays as it is. Held messages leave at their next look.
   * @throws {DomainError} NOT_FOUND when the customer has no such number.
   */
  async resume(
    customerId: string,
    phoneNumber: string,
    channel: Channel | undefined,
    log: SendPolicyLogger,
  ): Promise<NumberSendPolicy> {
    const number = await this.#number(customerId, phoneNumber);
    const { store, clock } = this.options;
    const resumed = await store.transaction((tx) =>
      tx.sendPolicies.resume(number.id, channel, clock.now()),
    );
    if (resumed.length > 0) {
      log.info(
        { customerId, phoneNumber, channels: resumed },
        'send policy: the operator resumed sends the delivery watchdog paused',
      );
    }
    return this.ofNumber(customerId, phoneNumber);
  }

  /**
   * The instance's policy and the built-in defaults.
   * @throws {DomainError} NOT_FOUND for an unknown instance.
   */
  async ofInstance(instanceId: string): Promise<InstanceSendPolicy> {
    const provider = await this.#instance(instanceId);
    const policy = await this.options.store.sendPolicies.findPolicy('instance', instanceId);
    const defaults = Object.fromEntries(
      CHANNELS.map((channel) => [channel, defaultsFor(provider, channel)]),
    ) as InstanceSendPolicy['defaults'];
    return { instanceId, policy: policy ?? {}, defaults };
  }

  /**
   * Replaces the instance's policy; an "already warm" override is logged.
   * @throws {DomainError} NOT_FOUND (instance), VALIDATION_ERROR (`inUseSince` after today).
   */
  async setForInstance(
    instanceId: string,
    settings: SendPolicySettings,
    log: SendPolicyLogger,
  ): Promise<InstanceSendPolicy> {
    await this.#instance(instanceId);
    await this.#put('instance', instanceId, settings, log, { instanceId });
    return this.ofInstance(instanceId);
  }

  async #put(
    scope: SendPolicyScope,
    scopeId: string,
    settings: SendPolicySettings,
    log: SendPolicyLogger,
    subject: Record<string, string>,
  ): Promise<void> {
    const now = this.options.clock.now();
    const today = this.options.day.dayOf(now);
    const since = settings.inUseSince ?? null;
    if (since !== null && (Number.isNaN(Date.parse(`${since}T00:00:00Z`)) || since > today)) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `inUseSince ${since} is not a day up to today (${today}, ${this.options.day.timeZone})`,
      );
    }
    const { store } = this.options;
    const before = await store.sendPolicies.findPolicy(scope, scopeId);
    await store.sendPolicies.putPolicy(scope, scopeId, settings as StoredSendPolicy, now);
    if (settings.alreadyWarm === true && before?.alreadyWarm !== true) {
      log.warn(
        { ...subject, scope, inUseSince: since },
        'send policy: the operator declared the number already warm; no warm-up ramp applies',
      );
    }
  }

  async #effective(number: SenderNumberView, channel: Channel): Promise<EffectiveSendPolicy> {
    const now = this.options.clock.now();
    const { policy, usage, restrictedUntil, restriction, paused } =
      await this.options.allowance.allowanceOf(number, channel);
    return {
      ...policy,
      usage,
      day: this.options.day.dayOf(now),
      resetsAt: new Date(this.options.day.nextDayStart(now)).toISOString(),
      restricted:
        restrictedUntil === null
          ? null
          : {
              until: new Date(restrictedUntil).toISOString(),
              code: restriction?.code ?? null,
              reason: restriction?.reason ?? null,
            },
      paused:
        paused === null
          ? null
          : { since: new Date(paused.since).toISOString(), reason: paused.reason },
    };
  }

  async #number(customerId: string, phoneNumber: string): Promise<SenderNumberView> {
    const number = await this.options.store.numbers.findByAddress(customerId, phoneNumber);
    if (!number) throw new DomainError('NOT_FOUND', `No number ${phoneNumber} exists`);
    return number;
  }

  /** The instance's provider; NOT_FOUND when it does not exist. */
  async #instance(instanceId: string): Promise<string> {
    const instance = await this.options.store.instances.findById(instanceId);
    if (!instance || instance.deletedAt !== null) {
      throw new DomainError('NOT_FOUND', `No instance ${instanceId} exists`);
    }
    return instance.provider;
  }
}

/** The channels a number is served on: its instance's, and those served for it by others. */
function channelsOf(number: SenderNumberView): Channel[] {
  const channels = new Set<Channel>(number.instanceChannels);
  for (const channel of Object.keys(number.channelInstances) as Channel[]) channels.add(channel);
  return [...channels].sort();
}
