import { ProviderRegistry } from '@switchboard/provider-kit';
import type { Clock } from '../clock';
import { timerClockOf } from '../provider-runtime/timer-clock-of';
import {
  type BaileysFactoryOptions,
  createBaileysFactory,
} from '../providers/baileys/baileys-factory';
import {
  type BlueBubblesFactoryOptions,
  createBlueBubblesFactory,
} from '../providers/bluebubbles/bluebubbles-factory';
import { createSimulatorFactory } from '../providers/simulator/simulator-factory';
import { createTwilioFactory } from '../providers/twilio/twilio-factory';

/** Server-wide settings of the built-in adapters. */
export interface DefaultProviderRegistryOptions {
  /** `SIMULATOR_STEP_MS`. */
  simulatorStepMs: number;
  /** The app's clock; the simulator's steps run on it. */
  clock: Clock;
  /** `PROVIDER_HTTP_TIMEOUT_MS`: the deadline of one upstream API call. */
  httpTimeoutMs?: number;
  /** Media fetching and limits of BlueBubbles instances. */
  bluebubbles?: Omit<BlueBubblesFactoryOptions, 'timeoutMs'>;
  /** Baileys instances: the adapter package, and what tests replace (the socket). */
  baileys?: BaileysFactoryOptions;
}

/**
 * The adapters this server can run instances of: the simulator, BlueBubbles, Twilio and Baileys
 * (whose package is loaded only when a `baileys` instance is built).
 */
export function createDefaultProviderRegistry(
  options: DefaultProviderRegistryOptions,
): ProviderRegistry {
  return new ProviderRegistry()
    .register(
      createSimulatorFactory({
        stepMs: options.simulatorStepMs,
        clock: timerClockOf(options.clock),
      }),
    )
    .register(
      createBlueBubblesFactory({
        ...options.bluebubbles,
        ...(options.httpTimeoutMs === undefined ? {} : { timeoutMs: options.httpTimeoutMs }),
      }),
    )
    .register(
      createTwilioFactory(
        options.httpTimeoutMs === undefined ? {} : { timeoutMs: options.httpTimeoutMs },
      ),
    )
    .register(createBaileysFactory(options.baileys));
}
