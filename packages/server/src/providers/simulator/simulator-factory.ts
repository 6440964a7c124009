import { SimulatorInstanceConfig } from '@switchboard/contract';
import type {
  ProviderFactory,
  ProviderInstanceConfig,
  TimerClock,
} from '@switchboard/provider-kit';
import { ProviderConfigError } from '@switchboard/provider-kit';
import {
  DEFAULT_SIMULATOR_STEP_MS,
  SIMULATOR_CHANNELS,
  SIMULATOR_PROVIDER,
  SimulatorProvider,
} from './simulator-provider';

/** Server-wide simulator settings. */
export interface SimulatorFactoryOptions {
  /** `SIMULATOR_STEP_MS`: the step length of instances that do not set their own. */
  stepMs?: number;
  /** The clock steps run on (the real one by default). */
  clock?: TimerClock;
}

/** A factory of simulator instances: `create` answers the simulator itself, synchronously. */
export type SimulatorFactory = Omit<ProviderFactory, 'create'> & {
  create(instance: ProviderInstanceConfig): SimulatorProvider;
};

/**
 * The factory of simulator instances, for the provider registry.
 * @example registry.register(createSimulatorFactory({ stepMs: config.SIMULATOR_STEP_MS }));
 */
export function createSimulatorFactory(options: SimulatorFactoryOptions = {}): SimulatorFactory {
  return {
    provider: SIMULATOR_PROVIDER,
    supportedChannels: SIMULATOR_CHANNELS,
    create(instance: ProviderInstanceConfig): SimulatorProvider {
      const parsed = SimulatorInstanceConfig.safeParse(instance.config);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ProviderConfigError(
          `instance "${instance.name}": invalid simulator config${issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : ''}`,
        );
      }
      const config = parsed.data;
      return new SimulatorProvider({
        instanceName: instance.name,
        channels: instance.channels,
        stepMs: config.stepMs ?? options.stepMs ?? DEFAULT_SIMULATOR_STEP_MS,
        ...(config.qrRotationSteps === undefined
          ? {}
          : { qrRotationSteps: config.qrRotationSteps }),
        ...(config.qrMaxRotations === undefined ? {} : { qrMaxRotations: config.qrMaxRotations }),
        ...(options.clock === undefined ? {} : { clock: options.clock }),
        ...(config.ingressSecret === undefined ? {} : { ingressSecret: config.ingressSecret }),
      });
    },
  };
}
