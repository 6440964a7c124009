import type {
  MessagingProvider,
  ProviderReactRequest,
  ProviderSendRequest,
  ProviderSendResult,
} from '@switchboard/provider-kit';
import { ProviderRegistry } from '@switchboard/provider-kit';
import { createSimulatorFactory } from '../../src/providers/simulator/simulator-factory';
import type { SimulatorProvider } from '../../src/providers/simulator/simulator-provider';

/** What the gateway asked of the simulated upstream: the provider side of the port, recorded. */
export interface ProviderCalls {
  /** Every send attempt, in order. */
  sends: ProviderSendRequest[];
  /** What the upstream answered each accepted send, by message id. */
  results: Map<string, ProviderSendResult>;
  /** When each send attempt reached the upstream (epoch milliseconds, real time). */
  sendTimes: { messageId: string; at: number }[];
  /** Every reaction. */
  reactions: ProviderReactRequest[];
  /** The simulator instances built, by instance name (their sandboxes make the world act). */
  simulators: Map<string, SimulatorProvider>;
}

/**
 * A provider registry whose simulator instances record the requests they receive, the way a test
 * double of an upstream HTTP API would: the simulator still does all the work.
 */
export function recordingRegistry(): { registry: ProviderRegistry; calls: ProviderCalls } {
  const calls: ProviderCalls = {
    sends: [],
    results: new Map(),
    sendTimes: [],
    reactions: [],
    simulators: new Map(),
  };
  const simulator = createSimulatorFactory({ stepMs: 0 });
  const registry = new ProviderRegistry().register({
    provider: simulator.provider,
    supportedChannels: simulator.supportedChannels,
    create(instance) {
      const provider = simulator.create(instance) as SimulatorProvider;
      calls.simulators.set(instance.name, provider);
      return new Proxy(provider, {
        get(target, property) {
          if (property === 'send') {
            return (request: ProviderSendRequest) => {
              calls.sends.push(request);
              calls.sendTimes.push({ messageId: request.messageId, at: Date.now() });
              return target.send(request).then((result) => {
                calls.results.set(request.messageId, result);
                return result;
              });
            };
          }
          const reactions = target.capabilities.reactions;
          if (property === 'capabilities' && reactions) {
            return {
              ...target.capabilities,
              reactions: {
                ...reactions,
                react: (request: ProviderReactRequest) => {
                  calls.reactions.push(request);
                  return reactions.react(request);
                },
              },
            };
          }
          const value: unknown = Reflect.get(target, property);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) as MessagingProvider;
    },
  });
  return { registry, calls };
}
