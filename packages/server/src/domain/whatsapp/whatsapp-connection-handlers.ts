import type { ProviderLogger } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { EventRecorder } from '../../events/event-recorder';
import type { InboundHandler, ProviderHub } from '../../providers/provider-hub';
import type { UnitOfWork } from '../../store/store';
import { findReceivingNumber } from '../inbound/receiving-number';
import { resolveLidInChats } from './lid-resolution';
import { applySessionChange, changeOf } from './session-transition';

/** Dependencies of the WhatsApp session event handlers. */
export interface WhatsAppHandlerDeps {
  /** The store. */
  store: UnitOfWork;
  /** Where `whatsapp.status` is recorded. */
  events: EventRecorder;
  /** The time source. */
  clock: Clock;
  /** Where dropped events are reported. */
  logger: ProviderLogger;
}

/** Stores every session transition and emits `whatsapp.status` on the stream. */
function whatsappConnectionHandler(
  deps: WhatsAppHandlerDeps,
): InboundHandler<'whatsapp.connection'> {
  return async (event, context) => {
    const number = await findReceivingNumber(deps.store, context, event.phoneNumber);
    if (!number) {
      deps.logger.warn(
        { instance: context.instanceName, state: event.state },
        'whatsapp session event dropped: the number is not assigned on this instance',
      );
      return;
    }
    await deps.store.transaction((tx) =>
      applySessionChange(
        tx,
        deps.events,
        {
          customerId: number.customerId,
          phoneNumber: number.phoneNumber,
          instanceId: context.instanceId,
        },
        changeOf(event),
        new Date(deps.clock.now()),
      ),
    );
  };
}

/**
 * Pairing codes are answered to the API call that asked for them; the event only confirms it,
 * so nothing is stored (a code must not outlive its request in the database).
 */
function whatsappPairingCodeHandler(): InboundHandler<'whatsapp.pairing_code'> {
  return async () => undefined;
}

/** Replaces an `@lid` member by its phone JID in the receiving customer's chats. */
function lidResolvedHandler(deps: WhatsAppHandlerDeps): InboundHandler<'whatsapp.lid_resolved'> {
  return async (event, context) => {
    const number = await findReceivingNumber(deps.store, context, event.phoneNumber);
    if (!number) return;
    await deps.store.transaction((tx) =>
      resolveLidInChats(tx, {
        customerId: number.customerId,
        instanceId: context.instanceId,
        lid: event.lid,
        jid: event.jid,
        at: new Date(deps.clock.now()),
      }),
    );
  };
}

/** Registers the WhatsApp session handlers on the hub. */
export function registerWhatsAppHandlers(
  hub: Pick<ProviderHub, 'on'>,
  deps: WhatsAppHandlerDeps,
): void {
  hub.on('whatsapp.connection', whatsappConnectionHandler(deps));
  hub.on('whatsapp.pairing_code', whatsappPairingCodeHandler());
  hub.on('whatsapp.lid_resolved', lidResolvedHandler(deps));
}
