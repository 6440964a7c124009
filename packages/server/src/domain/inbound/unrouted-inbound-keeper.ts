import type { ProviderInboundEvent, ProviderLogger } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import { newId } from '../../ids';
import type { InboundContext } from '../../providers/provider-hub';
import type { Repositories } from '../../store/store';
import type {
  UnroutedInboundRecord,
  UnroutedReason,
} from '../../store/unrouted-inbound-repository';
import { phoneOfJid } from '../chats/participant-address';
import { encodeInboundEvent } from './inbound-event-codec';

/**
 * The kinds of provider events the gateway keeps when no customer can receive them. Typing and a
 * chat marked read on the device are left out: they describe a moment, and told late they would
 * say something false (docs/decisions/0460).
 */
const KEPT_KINDS: ReadonlySet<ProviderInboundEvent['kind']> = new Set([
  'message.inbound',
  'message.changed',
  'message.reaction',
  'message.audio_kept',
  'chat.event',
  'facetime.incoming',
  'facetime.status',
]);

/** Whether events of `kind` are kept when unrouted. */
function isKeptKind(kind: ProviderInboundEvent['kind']): boolean {
  return KEPT_KINDS.has(kind);
}

/** The contact an event comes from, when it names one. */
function contactOf(event: ProviderInboundEvent): string | null {
  switch (event.kind) {
    case 'message.inbound':
    case 'message.changed':
    case 'message.reaction':
    case 'message.audio_kept':
      return event.from;
    case 'chat.event':
      return event.actor;
    case 'facetime.incoming':
      return event.caller;
    case 'facetime.status':
      return event.address;
    default:
      return null;
  }
}

/** What the keeper needs. */
export interface UnroutedInboundKeeperDeps {
  /** The store. */
  store: Repositories;
  /** The time source. */
  clock: Clock;
  /** Where each kept item is reported. */
  logger: ProviderLogger;
  /** Told of each kept item (the metrics). */
  onKept?: (item: UnroutedInboundRecord) => void;
}

/**
 * Keeps what an upstream handed the gateway that no customer can receive now (the receiving
 * address is nobody's, or another instance's): the event is stored whole, with its reason, so it
 * can be delivered once the address is assigned, or discarded by the operator. Nothing an upstream
 * hands the gateway is lost with a log line.
 */
export class UnroutedInboundKeeper {
  readonly #deps: UnroutedInboundKeeperDeps;

  /** Creates the keeper. */
  constructor(deps: UnroutedInboundKeeperDeps) {
    this.#deps = deps;
  }

  /**
   * Keeps `event`, which `context`'s instance received on `address`; a kind not worth keeping
   * (typing, read marks) and a history sync's replay are only logged.
   */
  async keep(event: ProviderInboundEvent, context: InboundContext, address: string): Promise<void> {
    const { store, clock, logger } = this.#deps;
    const details = { instance: context.instanceName, kind: event.kind, address };
    if (!isKeptKind(event.kind) || (event.kind === 'message.inbound' && event.history === true)) {
      logger.debug(details, 'inbound event not kept: the receiving address is not assigned');
      return;
    }
    const owner = await store.numbers.findByAddressInAnyCustomer(phoneOfJid(address) ?? address);
    const reason: UnroutedReason = owner ? 'address_on_other_instance' : 'address_not_assigned';
    const record: UnroutedInboundRecord = {
      id: newId('unr'),
      instanceId: context.instanceId,
      address,
      kind: event.kind,
      reason,
      from: contactOf(event),
      channel: event.channel,
      payload: encodeInboundEvent(event),
      receivedAt: new Date(clock.now()),
    };
    await store.unroutedInbound.insert(record);
    logger.warn(
      { ...details, reason, id: record.id },
      'inbound event kept: no customer has the receiving address on this instance (see `switchboard unrouted list`)',
    );
    this.#deps.onKept?.(record);
  }
}
