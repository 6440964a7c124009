import type { OptOut, OptOutList } from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { EventRecorder } from '../../events/event-recorder';
import { newCorrelationId } from '../../ids';
import type { MessageRecord } from '../../store/message-repository';
import type { OptOutRecord, OptOutStatusValue } from '../../store/opt-out-repository';
import type { Store, UnitOfWork } from '../../store/store';
import type { Channel } from '../../store/store-types';
import { DomainError } from '../domain-error';
import { optOutKeywordOf, type UpstreamOptOutType } from './opt-out-keywords';

/** A change to record: a recipient opted out of, or back into, a sender number. */
export type OptOutChange = Omit<OptOutRecord, 'createdAt' | 'updatedAt'>;

/** The filter of a ledger listing, as the API takes it. */
export interface OptOutListing {
  /** `opted_out` (default), `opted_in` or `all`. */
  status: OptOutStatusValue | 'all';
  /** Only this sender number. */
  from?: string | undefined;
  /** Only this recipient. */
  recipient?: string | undefined;
  /** Page size. */
  limit: number;
  /** Cursor of the previous page. */
  cursor?: string | undefined;
}

/**
 * The opt-out ledger: recipients who texted STOP (or START) to a customer's sender numbers, and
 * the opt-outs an upstream reported (Twilio 21610). An opt-out holds for every channel of that
 * sender number. Each change emits `contact.opted_out` / `contact.opted_in`; a repeated STOP
 * changes nothing. Sends to an opted-out recipient are refused unless the customer lets the
 * upstream enforce its own list (`optOutHandling: upstream`).
 */
export class OptOutLedger {
  /** A ledger over the store, emitting through `events`. */
  constructor(
    private readonly store: Store,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  /** Records the keyword a contact texted to `sender`, inside the inbound transaction. */
  async recordInbound(
    tx: UnitOfWork,
    input: {
      customerId: string;
      sender: string;
      recipient: string;
      channel: Channel;
      text: string;
      /** The upstream's own reading of the keyword (Twilio's `OptOutType`), when it gives one. */
      optOutType?: UpstreamOptOutType | undefined;
    },
  ): Promise<void> {
    const keyword = optOutKeywordOf(input.text, input.optOutType);
    if (!keyword) return;
    await this.record(tx, {
      customerId: input.customerId,
      sender: input.sender,
      recipient: input.recipient,
      channel: input.channel,
      status: keyword.status,
      source: 'keyword',
      keyword: keyword.keyword,
    });
  }

  /**
   * Records a change, and emits its event when the state changed. A START from a recipient who
   * never opted out records nothing.
   */
  async record(tx: UnitOfWork, change: OptOutChange): Promise<void> {
    const prior = await tx.optOuts.find(change.customerId, change.sender, change.recipient);
    if (prior?.status === change.status) return;
    if (!prior && change.status === 'opted_in') return;
    const now = new Date(this.clock.now());
    await tx.optOuts.upsert({ ...change, createdAt: prior?.createdAt ?? now, updatedAt: now });
    await this.events.record(tx, {
      customerId: change.customerId,
      type: change.status === 'opted_out' ? 'contact.opted_out' : 'contact.opted_in',
      correlationId: newCorrelationId(),
      data: {
        from: change.sender,
        recipient: change.recipient,
        status: change.status,
        source: change.source,
        keyword: change.keyword,
        channel: change.channel,
      },
    });
  }

  /**
   * Why a send from `sender` to `recipient` must be refused, or undefined when it may go: the
   * recipient opted out and the customer's `optOutHandling` is `gateway`.
   */
  async refusal(
    reader: UnitOfWork,
    customerId: string,
    sender: string,
    recipient: string,
  ): Promise<string | undefined> {
    const record = await reader.optOuts.find(customerId, sender, recipient);
    if (record?.status !== 'opted_out') return undefined;
    const customer = await reader.customers.findById(customerId);
    if (customer?.settings.optOutHandling === 'upstream') return undefined;
    const how =
      record.source === 'keyword'
        ? `texted ${record.keyword ?? 'STOP'}`
        : 'opted out with the carrier';
    return `${recipient} ${how} to ${sender} and receives no messages from it until they text START (see GET /v1/opt-outs)`;
  }

  /**
   * Why an accepted message must not be handed to its provider now (its recipient opted out
   * since it was accepted or scheduled), or undefined. Chat-keyed and group sends are not
   * affected: an opt-out is one recipient's.
   */
  async refusalOfMessage(reader: UnitOfWork, message: MessageRecord): Promise<string | undefined> {
    if (message.to === null || message.isGroup) return undefined;
    const sender = await senderNumberOf(reader, message.customerId, message.from);
    return this.refusal(reader, message.customerId, sender, message.to);
  }

  /**
   * Records the opt-out an upstream reported by failing `message` with `RECIPIENT_OPTED_OUT`
   * (Twilio's 21610), inside the transaction that failed it.
   */
  async recordRefusal(tx: UnitOfWork, message: MessageRecord): Promise<void> {
    if (message.errorCode !== 'RECIPIENT_OPTED_OUT' || message.to === null || message.isGroup) {
      return;
    }
    await this.record(tx, {
      customerId: message.customerId,
      sender: await senderNumberOf(tx, message.customerId, message.from),
      recipient: message.to,
      status: 'opted_out',
      source: 'upstream',
      keyword: null,
      channel: message.channel ?? 'sms',
    });
  }

  /**
   * Refuses a send from `sender` to `recipient` when the recipient opted out.
   * @throws {DomainError} RECIPIENT_OPTED_OUT
   */
  async assertMaySend(customerId: string, sender: string, recipient: string): Promise<void> {
    const reason = await this.refusal(this.store, customerId, sender, recipient);
    if (reason !== undefined) throw new DomainError('RECIPIENT_OPTED_OUT', reason);
  }

  /**
   * A page of the customer's ledger, most recently changed first.
   * @throws {DomainError} VALIDATION_ERROR for a cursor that is not one.
   */
  async list(customerId: string, listing: OptOutListing): Promise<OptOutList> {
    const after = listing.cursor === undefined ? undefined : decodeOptOutCursor(listing.cursor);
    const rows = await this.store.optOuts.list(customerId, {
      ...(listing.status === 'all' ? {} : { status: listing.status }),
      ...(listing.from === undefined ? {} : { sender: listing.from }),
      ...(listing.recipient === undefined ? {} : { recipient: listing.recipient }),
      limit: listing.limit + 1,
      ...(after ? { after } : {}),
    });
    const page = rows.slice(0, listing.limit);
    const last = page.at(-1);
    const hasMore = rows.length > listing.limit;
    return {
      optOuts: page.map(toOptOut),
      pagination: {
        hasMore,
        nextCursor: hasMore && last ? encodeOptOutCursor(last) : null,
      },
    };
  }
}

/** The sender number of an address a customer sends from (its phone number for an e-mail alias). */
async function senderNumberOf(
  reader: UnitOfWork,
  customerId: string,
  from: string,
): Promise<string> {
  if (from.startsWith('+')) return from;
  const number = await reader.numbers.findByAddress(customerId, from);
  return number?.phoneNumber ?? from;
}

function toOptOut(record: OptOutRecord): OptOut {
  return {
    from: record.sender,
    recipient: record.recipient,
    status: record.status,
    source: record.source,
    keyword: record.keyword,
    channel: record.channel,
    updatedAt: record.updatedAt.toISOString(),
    createdAt: record.createdAt.toISOString(),
  };
}

function encodeOptOutCursor(record: OptOutRecord): string {
  return Buffer.from(
    JSON.stringify([record.updatedAt.getTime(), record.sender, record.recipient]),
    'utf8',
  ).toString('base64url');
}

function decodeOptOutCursor(cursor: string): {
  updatedAt: number;
  sender: string;
  recipient: string;
} {
  try {
    const [updatedAt, sender, recipient] = JSON.parse(
      Buffer.from(cursor, 'base64url').toString('utf8'),
    ) as unknown[];
    if (
      typeof updatedAt === 'number' &&
      typeof sender === 'string' &&
      typeof recipient === 'string'
    ) {
      return { updatedAt, sender, recipient };
    }
  } catch {
    // Reported below.
  }
  throw new DomainError('VALIDATION_ERROR', 'cursor: is not a cursor from a previous page');
}
