import type { SendOutcomeRecord } from '../../store/message-repository';
import type { Store } from '../../store/store';
import { judgeDeliveries, type NumberDeliveryHealth } from './delivery-judgement';
import type { WatchdogSettings } from './watchdog-settings';

/**
 * The delivery watchdog's automatic pause (an operator opt-in, `deliveryWatchdog.autoPause`,
 * decision 0682): a stalling number's sends on the stalling channel are paused, in the store, until
 * the operator resumes them. After a resume only sends that reached `sent` after it count, so the
 * evidence that paused the number does not pause it again at once.
 */
export class AutoPause {
  /** Pauses over `store`. */
  constructor(private readonly store: Pick<Store, 'numbers' | 'sendPolicies'>) {}

  /**
   * Pauses each stalling number of `verdicts` (judged from `sends` under `settings` at `now`)
   * not paused yet; `describe` words the reason kept with the pause.
   */
  async pauseStalling(
    sends: readonly SendOutcomeRecord[],
    verdicts: readonly NumberDeliveryHealth[],
    settings: WatchdogSettings,
    now: number,
    describe: (health: NumberDeliveryHealth) => string,
  ): Promise<void> {
    if (!settings.autoPause) return;
    for (const verdict of verdicts) {
      if (!verdict.stalling) continue;
      const number = await this.store.numbers.findByAddressInAnyCustomer(verdict.number);
      if (!number) continue;
      const pause = (await this.store.sendPolicies.findPauses(number.id)).find(
        (p) => p.channel === verdict.channel,
      );
      if (pause?.pausedAt != null) continue;
      const resumedAt = pause?.resumedAt ?? null;
      let health: NumberDeliveryHealth | undefined = verdict;
      if (resumedAt !== null) {
        const since = sends.filter(
          (send) =>
            send.from === verdict.number &&
            send.channel === verdict.channel &&
            (send.sentAt ?? 0) > resumedAt,
        );
        health = judgeDeliveries(since, settings, now)[0];
      }
      if (!health?.stalling) continue;
      await this.store.sendPolicies.pause(number.id, verdict.channel, describe(health), now);
    }
  }
}
