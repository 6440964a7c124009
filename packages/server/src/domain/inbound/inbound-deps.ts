import type { ProviderLogger } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { EventRecorder } from '../../events/event-recorder';
import type { InboundContext } from '../../providers/provider-hub';
import type { SenderNumberView } from '../../store/number-repository';
import type { UnitOfWork } from '../../store/store';
import { findReceivingNumber } from './receiving-number';

/** What every inbound event handler needs. */
export interface InboundDeps {
  /** The store. */
  store: UnitOfWork;
  /** Where events are recorded. */
  events: EventRecorder;
  /** The time source. */
  clock: Clock;
  /** Where dropped events are reported. */
  logger: ProviderLogger;
}

/**
 * The customer's number an event was received on, or undefined (logged) when the receiving
 * address is not assigned on the reporting instance: such an event is dropped.
 */
export async function receiverOf(
  deps: InboundDeps,
  context: InboundContext,
  address: string,
  kind: string,
): Promise<SenderNumberView | undefined> {
  const number = await findReceivingNumber(deps.store, context, address);
  if (!number) {
    deps.logger.warn(
      { instance: context.instanceName, kind },
      'inbound event dropped: the receiving address is not assigned on this instance',
    );
  }
  return number;
}
