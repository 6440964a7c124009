import {
  type Channel,
  DELIVERY_WATCHDOG_DEFAULTS,
  DELIVERY_WATCHDOG_WINDOW_DEFAULTS,
  DeliveryWatchdogSettings,
} from '@switchboard/contract';

/** The delivery watchdog settings of one instance, defaults filled in. */
export interface WatchdogSettings {
  /** Whether the instance is watched. */
  enabled: boolean;
  /** The undelivered share at or above which a number is stalling. */
  threshold: number;
  /** Judged sends needed before a verdict. */
  minSample: number;
  /** The most recent judged sends the share is taken over. */
  sampleSize: number;
  /** The delivery window per channel, in seconds. */
  windowSeconds: Record<Channel, number>;
  /** Pause a stalling number's sends on the channel until the operator resumes them. */
  autoPause: boolean;
}

/**
 * The watchdog settings of an instance's stored `config` (its `deliveryWatchdog`), defaults
 * filled in; a stored value the contract no longer accepts falls back to the defaults.
 */
export function watchdogSettingsOf(config: Record<string, unknown>): WatchdogSettings {
  const parsed = DeliveryWatchdogSettings.safeParse(config.deliveryWatchdog ?? {});
  const given = parsed.success ? parsed.data : {};
  return {
    enabled: given.enabled ?? DELIVERY_WATCHDOG_DEFAULTS.enabled,
    threshold: given.threshold ?? DELIVERY_WATCHDOG_DEFAULTS.threshold,
    minSample: given.minSample ?? DELIVERY_WATCHDOG_DEFAULTS.minSample,
    sampleSize: given.sampleSize ?? DELIVERY_WATCHDOG_DEFAULTS.sampleSize,
    autoPause: given.autoPause ?? DELIVERY_WATCHDOG_DEFAULTS.autoPause,
    windowSeconds: {
      imessage: given.windowSeconds?.imessage ?? DELIVERY_WATCHDOG_WINDOW_DEFAULTS.imessage,
      sms: given.windowSeconds?.sms ?? DELIVERY_WATCHDOG_WINDOW_DEFAULTS.sms,
      whatsapp: given.windowSeconds?.whatsapp ?? DELIVERY_WATCHDOG_WINDOW_DEFAULTS.whatsapp,
    },
  };
}
