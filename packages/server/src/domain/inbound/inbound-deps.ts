import type { ProviderInboundEvent, ProviderLogger } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { EventRecorder } from '../../events/event-recorder';
import type { InboundContext } from '../../providers/provider-hub';
import type { SenderNumberView } from '../../store/number-repository';
import type { UnitOfWork } from '../../store/store';
import { findReceivingNumber } from './receiving-number';
import type { UnroutedInboundKeeper } from './unrouted-inbound-keeper';

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
  /** Keeps the events no customer can receive now. */
  unrouted: Pick<UnroutedInboundKeeper, 'keep'>;
}

/**
 * The customer's number an event was received on, or undefined when the receiving address is not
 * assigned on the reporting instance: such an event is kept (see {@link UnroutedInboundKeeper})
 * and delivered once the address is assigned.
 */
export async function receiverOf(
  deps: InboundDeps,
  context: InboundContext,
  event: ProviderInboundEvent,
  address: string,
): Promise<SenderNumberView | undefined> {
  const number = await findReceivingNumber(deps.store, context, address);
  if (!number) await deps.unrouted.keep(event, context, address);
  return number;
}
