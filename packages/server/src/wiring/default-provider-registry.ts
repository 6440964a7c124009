import { ProviderRegistry } from '@switchboard/provider-kit';
import type { Clock } from '../clock';
import { timerClockOf } from '../provider-runtime/timer-clock-of';
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
}

/**
 * The adapters this server can run instances of: the simulator and Twilio. BlueBubbles and
 * Baileys register here as they are built.
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
      createTwilioFactory(
        options.httpTimeoutMs === undefined ? {} : { timeoutMs: options.httpTimeoutMs },
      ),
    );
}
