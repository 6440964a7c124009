import { afterEach, beforeEach, describe } from 'vitest';
import {
  describeCapabilityGate,
  describeEdits,
  describeGroups,
  describeReactions,
  describeTyping,
  describeUnsend,
} from './provider-conformance-operations';
import { conformanceRun } from './provider-conformance-run';
import {
  describeAttachments,
  describeRedrivenSends,
  describeSendFailures,
  describeSends,
  describeStop,
  describeUnservedChannels,
} from './provider-conformance-sends';
import {
  describeAvailabilityAndHealth,
  describeInboundEvents,
  describeIngress,
  describeReconciliation,
  describeWhatsAppSessions,
} from './provider-conformance-upstream';

export type {
  ProviderConformanceIngress,
  ProviderConformanceOptions,
  ProviderConformanceSubject,
} from './provider-conformance-options';

import type { ProviderConformanceOptions } from './provider-conformance-options';

/**
 * The shared test suite every provider adapter passes, per channel it serves: sends answer an
 * `externalId`, statuses arrive in order through the sink, failures carry spec error codes,
 * the capabilities it declares work and the gateway answers `CHANNEL_NOT_SUPPORTED` for the rest,
 * availability and health answer in
 * shape, and nothing reaches the sink after `stop`.
 * @example describeProviderConformance({ name: 'simulator', channel: 'sms', ... });
 */
export function describeProviderConformance(options: ProviderConformanceOptions): void {
  describe(`${options.name} conforms to the provider port on ${options.channel}`, () => {
    const run = conformanceRun(options);

    beforeEach(async () => {
      await run.start();
    });

    afterEach(async () => {
      await run.provider.stop();
      await run.subject.cleanup?.();
    });

    describeSends(run);
    describeSendFailures(run);
    describeEdits(run);
    describeUnsend(run);
    describeReactions(run);
    describeTyping(run);
    describeCapabilityGate(run);
    describeAvailabilityAndHealth(run);
    describeReconciliation(run);
    describeUnservedChannels(run);
    describeAttachments(run);
    describeInboundEvents(run);
    describeGroups(run);
    describeWhatsAppSessions(run);
    describeRedrivenSends(run);
    describeIngress(run);
    describeStop(run);
  });
}
