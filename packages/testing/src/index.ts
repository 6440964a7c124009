/**
 * Test support for Switchboard and provider adapters: the provider conformance suite, an event
 * recorder, a manual clock and a loopback HTTP receiver. Test code only; never in a shipped bundle.
 */

export { type FakeArgs, parseFakeArgs } from './fake-cli';
export { freeLoopbackPort } from './free-port';
export { type IngressRelay, startIngressRelay } from './ingress-relay';
export {
  type LoopbackReceiver,
  type ReceivedRequest,
  type ReceiverHandler,
  startLoopbackReceiver,
} from './loopback-receiver';
export { ManualTimerClock } from './manual-timer-clock';
export { type InstallPackedOptions, installPacked, type PackedProject } from './packed-project';
export {
  describeProviderConformance,
  type ProviderConformanceIngress,
  type ProviderConformanceOptions,
  type ProviderConformanceSubject,
} from './provider-conformance';
export { type ProviderOperations, providerOperations } from './provider-operations';
export {
  ProviderEventRecorder,
  type ProviderEventRecorderOptions,
  silentProviderLogger,
  startWithRecorder,
} from './provider-test-support';
