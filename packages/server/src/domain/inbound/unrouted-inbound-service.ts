import type { UnroutedInboundItem } from '@switchboard/contract';
import type { ProviderInboundEvent, ProviderLogger } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { InboundContext } from '../../providers/provider-hub';
import type { UnitOfWork } from '../../store/store';
import type { Channel } from '../../store/store-types';
import type {
  UnroutedInboundFilter,
  UnroutedInboundRecord,
} from '../../store/unrouted-inbound-repository';
import { DomainError } from '../domain-error';
import { decodeInboundEvent } from './inbound-event-codec';
import { findReceivingNumber } from './receiving-number';

/** Hands a kept event to the handler of its kind, as if the upstream had just sent it. */
export type InboundReplay = (event: ProviderInboundEvent, context: InboundContext) => Promise<void>;

/** What {@link UnroutedInboundService} needs. */
export interface UnroutedInboundServiceDeps {
  /** The store. */
  store: UnitOfWork;
  /** The time source. */
  clock: Clock;
  /** How long a kept item waits for its address before it is forgotten (ms). */
  retentionMs: number;
  /** Where deliveries' failures are reported. */
  logger: ProviderLogger;
}

/** A kept item as the operator sees it (its payload stays in the store). */
export interface UnroutedInboundView {
  /** `unr_…`. */
  id: string;
  /** The instance that received it. */
  instanceId: string;
  /** The receiving address no customer has. */
  address: string;
  /** The provider event kind. */
  kind: string;
  /** Why it was kept. */
  reason: UnroutedInboundRecord['reason'];
  /** The contact, when the event names one. */
  from: string | null;
  /** The channel. */
  channel: Channel;
  /** When the gateway received it. */
  receivedAt: Date;
  /** When it is forgotten unless delivered or discarded first. */
  expiresAt: Date;
}

/** A kept item as the admin API and the CLI show it. */
export function toUnroutedInboundItem(view: UnroutedInboundView): UnroutedInboundItem {
  return {
    ...view,
    receivedAt: view.receivedAt.toISOString(),
    expiresAt: view.expiresAt.toISOString(),
  };
}

/** How many items one run delivers per address at most (the next run goes on). */
const DELIVERY_BATCH = 500;

/**
 * The inbound items no customer could receive: the operator lists and discards them, they are
 * delivered in the order they came once their address is assigned on their instance, and they
 * are forgotten after the retention.
 */
export class UnroutedInboundService {
  readonly #deps: UnroutedInboundServiceDeps;
  #replay: InboundReplay | undefined;

  /** Creates the service; deliveries wait for {@link useReplay}. */
  constructor(deps: UnroutedInboundServiceDeps) {
    this.#deps = deps;
  }

  /** Sets how kept events reach their handlers (the inbound handlers, once registered). */
  useReplay(replay: InboundReplay): void {
    this.#replay = replay;
  }

  /** The kept items matching `filter`, oldest first (at most `limit`), and how many match. */
  async list(
    filter: UnroutedInboundFilter,
    limit: number,
  ): Promise<{ items: UnroutedInboundView[]; total: number }> {
    await this.purgeExpired();
    // One transaction, so an item kept between the two reads cannot be counted yet not listed.
    const [records, total] = await this.#deps.store.transaction(
      async (tx) =>
        [
          await tx.unroutedInbound.list(filter, limit),
          await tx.unroutedInbound.count(filter),
        ] as const,
    );
    return { items: records.map((record) => this.#view(record)), total };
  }

  /**
   * Forgets one kept item, undelivered.
   * @throws {DomainError} NOT_FOUND when no item has that id.
   */
  async discard(id: string): Promise<void> {
    if (!(await this.#deps.store.unroutedInbound.delete(id))) {
      throw new DomainError('NOT_FOUND', `No kept inbound item ${id} exists`);
    }
  }

  /** Forgets every kept item matching `filter`, undelivered; answers how many. */
  discardMatching(filter: UnroutedInboundFilter): Promise<number> {
    return this.#deps.store.unroutedInbound.deleteMatching(filter);
  }

  /** Forgets the items older than the retention; answers how many. */
  purgeExpired(): Promise<number> {
    const before = new Date(this.#deps.clock.now() - this.#deps.retentionMs);
    return this.#deps.store.unroutedInbound.deleteBefore(before);
  }

  /**
   * The health warnings of an instance about what it received for addresses no customer has on
   * it: one line naming the addresses (the most kept first), empty when there are none.
   */
  async warningsOf(instanceId: string): Promise<string[]> {
    const counts = (await this.#deps.store.unroutedInbound.countByAddress()).filter(
      (entry) => entry.instanceId === instanceId,
    );
    if (counts.length === 0) return [];
    const total = counts.reduce((sum, entry) => sum + entry.count, 0);
    const shown = counts.slice(0, 5).map((entry) => `${entry.address} (${entry.count})`);
    const more = counts.length > shown.length ? `, and ${counts.length - shown.length} more` : '';
    return [
      `${total} inbound ${total === 1 ? 'item' : 'items'} kept for addresses no customer has on this instance: ${shown.join(', ')}${more}; assign the address to deliver them, or discard them (switchboard unrouted)`,
    ];
  }

  /**
   * Delivers the kept items whose address is now assigned on their instance, oldest first, through
   * the inbound handlers; each is forgotten once handled. An item whose handling fails stays, with
   * the rest of its address, for the next run. Answers how many were delivered.
   */
  async deliverAssigned(): Promise<number> {
    const replay = this.#replay;
    if (!replay) return 0;
    await this.purgeExpired();
    const { store, logger } = this.#deps;
    let delivered = 0;
    for (const group of await store.unroutedInbound.countByAddress()) {
      const context = await this.#contextOf(group.instanceId);
      if (!context || !(await findReceivingNumber(store, context, group.address))) continue;
      const filter = { instanceId: group.instanceId, address: group.address };
      for (const item of await store.unroutedInbound.list(filter, DELIVERY_BATCH)) {
        try {
          await replay(decodeInboundEvent(item.payload), context);
        } catch (error) {
          logger.error(
            { err: error, id: item.id, address: item.address },
            'kept inbound item not delivered: retried at the next run',
          );
          break;
        }
        await store.unroutedInbound.delete(item.id);
        delivered += 1;
      }
    }
    if (delivered > 0) logger.info({ delivered }, 'kept inbound items delivered');
    return delivered;
  }

  async #contextOf(instanceId: string): Promise<InboundContext | undefined> {
    const instance = await this.#deps.store.instances.findById(instanceId);
    if (!instance || instance.deletedAt !== null) return undefined;
    return {
      instanceId: instance.id,
      instanceName: instance.name,
      provider: instance.provider,
      channels: [...instance.channels] as Channel[],
    };
  }

  #view(record: UnroutedInboundRecord): UnroutedInboundView {
    const { payload: _payload, ...view } = record;
    return { ...view, expiresAt: new Date(record.receivedAt.getTime() + this.#deps.retentionMs) };
  }
}
