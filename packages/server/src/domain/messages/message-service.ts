import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  ListMessagesQuery,
  ListScheduledMessagesQuery,
  MessageRouting,
  SendMessageRequest,
} from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { OutboundUrlPolicy } from '../../egress/outbound-url';
import { newId } from '../../ids';
import type { MessageRecord } from '../../store/message-repository';
import type { Store, UnitOfWork } from '../../store/store';
import { DomainError } from '../domain-error';
import type { MediaLimitCheck } from '../media/media-limit-check';
import { toMessageRouting } from '../routing/routing-trace-view';
import { requireUrl } from '../safe-url';
import { takeInAttachments } from './attachment-intake';
import { decodeCursor, encodeCursor } from './message-cursor';
import type { MessageEvents } from './message-events';
import { notFound, patchOf, visible } from './message-record';
import type { MessagePage } from './message-view';
import type { SendTarget, SendTargetResolver } from './send-target';

/** How far ahead a send may be scheduled: 30 days. */
const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 60 * 60 * 1000;

/** The outcome of a send: a new message (202) or the one an earlier send with its key made (200). */
export interface SendOutcome {
  /** True when this request created the message. */
  created: boolean;
  /** The message. */
  message: MessageRecord;
}

/** Dependencies of {@link MessageService}. */
export interface MessageServiceOptions {
  /** The store. */
  store: Store;
  /** The time source. */
  clock: Clock;
  /** Resolves the sender, instance and route of a send. */
  targets: SendTargetResolver;
  /** Records message events. */
  events: MessageEvents;
  /** Told (after commit) of every message that became `queued`, so a worker drives it now. */
  onQueued: (messageId: string) => void;
  /**
   * Takes the pace slot of a send being accepted, in its transaction; the answer to the send
   * waits for it, so a sender's sends keep their order across processes.
   */
  acceptPace?: (message: MessageRecord) => Promise<void>;
  /** The URL-safety policy every customer-given URL passes at the request. */
  urlPolicy: Pick<OutboundUrlPolicy, 'require'>;
  /** The size check of files whose size the request tells. */
  mediaLimits?: MediaLimitCheck;
}

/**
 * Messages as the customer sees them: send (with idempotency and scheduling), list, get, retry,
 * soft delete, the scheduled list and cancel. Every state change commits together with its event.
 */
export class MessageService {
  readonly #options: MessageServiceOptions;

  /** The service over its dependencies. */
  constructor(options: MessageServiceOptions) {
    this.#options = options;
  }

  /**
   * Accepts a send: validated against the customer's addresses, the clock and the recipient's
   * reachability, then stored with its `message.queued` (or `message.scheduled`) event in one
   * transaction. A repeated idempotency key answers the message the first send created, as it
   * is now, and sends nothing.
   * @throws {DomainError} ALREADY_DELETED when that message was deleted (a new one would send
   * twice what the key stands for).
   */
  async send(
    customerId: string,
    request: SendMessageRequest,
    correlationId: string,
  ): Promise<SendOutcome> {
    const { store, clock } = this.#options;
    const body = this.#withSafeUrls(request);
    const key = body.idempotencyKey;
    if (key !== undefined) {
      const existing = await store.messages.findByIdempotencyKey(customerId, key);
      if (existing) return replayOf(existing, key);
    }
    const now = clock.now();
    const scheduledAt = this.#scheduledAt(body.scheduledAt, now);
    const target = await this.#options.targets.resolve(customerId, body);
    if (body.replyTo !== undefined) await this.#assertReplyTarget(customerId, body.replyTo);
    const intake = await takeInAttachments(body.attachments);
    const message = this.#newMessage(customerId, body, target, {
      now,
      scheduledAt,
      correlationId,
      attachments: intake.attachments,
    });
    await this.#options.mediaLimits?.assertFits(message);

    let pace: Promise<void> | undefined;
    // The start slot is taken beside the transaction, not in it: it may start the instance on
    // this process (its first send there), which reads the store on a connection of its own.
    const besideTransaction = AsyncLocalStorage.snapshot();
    const outcome = await store.transaction(async (tx): Promise<SendOutcome> => {
      // The insert skips a row whose idempotency key is taken (a send with the same key that
      // committed after the check above, in this process or another): no second look first.
      if (!(await tx.messages.insert(message))) {
        const existing =
          key === undefined ? undefined : await tx.messages.findByIdempotencyKey(customerId, key);
        if (!existing || key === undefined) {
          throw new Error(`message ${message.id} could not be stored`);
        }
        return replayOf(existing, key);
      }
      for (const [position, bytes] of intake.data) {
        await tx.messages.insertAttachmentData(message.id, position, bytes);
      }
      await this.#options.events.lifecycle(
        tx,
        message.status === 'scheduled' ? 'message.scheduled' : 'message.queued',
        message,
        correlationId,
      );
      if (message.status === 'queued') {
        // Taken before the commit announces the message to a worker, which waits for it.
        pace ??= besideTransaction(() => this.#options.acceptPace?.(message));
        this.#afterCommitQueued(tx, message.id);
      }
      return { created: true, message };
    });
    await pace;
    return outcome;
  }

  /**
   * The customer's message.
   * @throws {DomainError} NOT_FOUND when it does not exist, belongs to someone else or is deleted.
   */
  async get(customerId: string, id: string): Promise<MessageRecord> {
    return visible(await this.#options.store.messages.findById(customerId, id), id);
  }

  /**
   * A message of any customer: the operator's view.
   * @throws {DomainError} NOT_FOUND when it does not exist or is deleted.
   */
  async getInAnyCustomer(id: string): Promise<MessageRecord> {
    return visible(await this.#options.store.messages.findByIdInAnyCustomer(id), id);
  }

  /** The routing trace of a customer's message, oldest step first (404 as {@link get}). */
  async routing(customerId: string, id: string): Promise<MessageRouting> {
    return this.routingOf(await this.get(customerId, id));
  }

  /** The routing trace of a message already found, oldest step first. */
  async routingOf(message: MessageRecord): Promise<MessageRouting> {
    const steps = await this.#options.store.routingSteps.listByMessage(
      message.customerId,
      message.id,
    );
    return toMessageRouting(message.id, steps);
  }

  /**
   * A page of the customer's messages, newest first, filtered as `query` asks; every customer's
   * when `customerId` is undefined (the operator's search).
   */
  async list(customerId: string | undefined, query: ListMessagesQuery): Promise<MessagePage> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const { cursor: _cursor, limit, createdAfter, createdBefore, ...filters } = query;
    const rows = await this.#options.store.messages.list(customerId, {
      ...definedOnly(filters),
      limit: limit + 1,
      ...(createdAfter === undefined ? {} : { createdAfter: new Date(createdAfter) }),
      ...(createdBefore === undefined ? {} : { createdBefore: new Date(createdBefore) }),
      ...(after ? { after: { createdAt: new Date(after.at), id: after.id } } : {}),
    });
    return page(rows, limit, (message) => message.createdAt.getTime());
  }

  /** A page of the customer's scheduled messages, soonest due first. */
  async listScheduled(customerId: string, query: ListScheduledMessagesQuery): Promise<MessagePage> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows = await this.#options.store.messages.listScheduled(customerId, {
      limit: query.limit + 1,
      ...(after ? { after: { scheduledAt: new Date(after.at), id: after.id } } : {}),
    });
    return page(rows, query.limit, (message) => message.scheduledAt?.getTime() ?? 0);
  }

  /**
   * Queues a failed message again: same id, `retryCount` + 1, a new attempt (and provider id),
   * with its original recipient, content, routing and instance; `message.queued` follows.
   * @throws {DomainError} NOT_FOUND, or INVALID_STATUS when it is not `failed`.
   */
  async retry(customerId: string, id: string, correlationId: string): Promise<MessageRecord> {
    return this.#options.store.transaction(async (tx) => {
      const message = visible(await tx.messages.findById(customerId, id), id);
      if (message.status !== 'failed') {
        throw new DomainError(
          'INVALID_STATUS',
          `Only failed messages can be retried; this one is ${message.status}`,
        );
      }
      const now = this.#options.clock.now();
      const retried: MessageRecord = {
        ...message,
        status: 'queued',
        channel: null,
        fallbackTriggered: false,
        externalId: null,
        errorCode: null,
        errorMessage: null,
        retryCount: message.retryCount + 1,
        timeline: [...message.timeline, { status: 'queued', at: now, channel: null }],
        correlationId,
        updatedAt: new Date(now),
      };
      await tx.messages.transition(id, ['failed'], patchOf(retried, message));
      await this.#options.events.lifecycle(tx, 'message.queued', retried, correlationId);
      this.#afterCommitQueued(tx, id);
      return retried;
    });
  }

  /**
   * Soft-deletes a message: it disappears from get and list, and `message.deleted` fires. A
   * scheduled or queued message that no worker has taken yet is not sent any more.
   * @throws {DomainError} NOT_FOUND, or ALREADY_DELETED on a repeat.
   */
  async delete(customerId: string, id: string, correlationId: string): Promise<void> {
    await this.#options.store.transaction(async (tx) => {
      const message = await tx.messages.findById(customerId, id);
      if (!message || message.suppressed) throw notFound(id);
      if (message.deletedAt !== null) {
        throw new DomainError('ALREADY_DELETED', `Message ${id} is already deleted`);
      }
      const now = new Date(this.#options.clock.now());
      const deleted: MessageRecord = { ...message, deletedAt: now, updatedAt: now };
      await tx.messages.update(id, { deletedAt: now, updatedAt: now });
      await this.#options.events.lifecycle(tx, 'message.deleted', deleted, correlationId);
    });
  }

  /**
   * Cancels a scheduled message: status `cancelled`, `message.schedule_cancelled`.
   * @throws {DomainError} NOT_FOUND, or NOT_SCHEDULED when it is not `scheduled`.
   */
  async cancelSchedule(
    customerId: string,
    id: string,
    correlationId: string,
  ): Promise<MessageRecord> {
    return this.#options.store.transaction(async (tx) => {
      const message = visible(await tx.messages.findById(customerId, id), id);
      if (message.status !== 'scheduled') {
        throw new DomainError(
          'NOT_SCHEDULED',
          `Only scheduled messages can be cancelled; this one is ${message.status}`,
        );
      }
      const now = this.#options.clock.now();
      const cancelled: MessageRecord = {
        ...message,
        status: 'cancelled',
        timeline: [...message.timeline, { status: 'cancelled', at: now, channel: null }],
        updatedAt: new Date(now),
      };
      await tx.messages.transition(id, ['scheduled'], patchOf(cancelled, message));
      await this.#options.events.lifecycle(
        tx,
        'message.schedule_cancelled',
        cancelled,
        correlationId,
      );
      return cancelled;
    });
  }

  /**
   * Moves every scheduled message due now to `queued` (with `message.queued`), each exactly once:
   * a conditional update claims it, so a second scheduler racing this one skips it.
   * @returns how many messages this call queued.
   */
  async queueDueMessages(batchSize = 100): Promise<number> {
    const { store, clock } = this.#options;
    let queued = 0;
    for (;;) {
      const now = clock.now();
      const ids = await store.messages.dueScheduledIds(new Date(now), batchSize);
      for (const id of ids) {
        const claimed = await store.transaction(async (tx) => {
          const message = await tx.messages.findByIdInAnyCustomer(id);
          if (message?.status !== 'scheduled') return false;
          const due: MessageRecord = {
            ...message,
            status: 'queued',
            timeline: [...message.timeline, { status: 'queued', at: now, channel: null }],
            updatedAt: new Date(now),
          };
          if (!(await tx.messages.transition(id, ['scheduled'], patchOf(due, message))))
            return false;
          await this.#options.events.lifecycle(tx, 'message.queued', due, due.correlationId);
          this.#afterCommitQueued(tx, id);
          return true;
        });
        if (claimed) queued += 1;
      }
      if (ids.length < batchSize) return queued;
    }
  }

  #afterCommitQueued(tx: UnitOfWork, id: string): void {
    tx.afterCommit(() => this.#options.onQueued(id));
  }

  /**
   * The send with every URL it gives (`content.mediaUrls`, attachment `url`s, `callbackUrl`)
   * checked by the URL-safety policy and normalized, so the host checked is the host used.
   * @throws {DomainError} VALIDATION_ERROR naming the first unsafe field.
   */
  #withSafeUrls(body: SendMessageRequest): SendMessageRequest {
    const { urlPolicy } = this.#options;
    const mediaUrls = body.content?.mediaUrls?.map((url, i) =>
      requireUrl(urlPolicy, url, `content.mediaUrls[${i}]`),
    );
    const attachments = body.attachments?.map((item, i) =>
      item.url === undefined
        ? item
        : { ...item, url: requireUrl(urlPolicy, item.url, `attachments[${i}].url`) },
    );
    const callbackUrl =
      body.callbackUrl === undefined
        ? undefined
        : requireUrl(urlPolicy, body.callbackUrl, 'callbackUrl');
    return {
      ...body,
      ...(body.content === undefined || mediaUrls === undefined
        ? {}
        : { content: { ...body.content, mediaUrls } }),
      ...(attachments === undefined ? {} : { attachments }),
      ...(callbackUrl === undefined ? {} : { callbackUrl }),
    };
  }

  /** The due time of a scheduled send, checked against the clock (rule 10). */
  #scheduledAt(value: string | undefined, now: number): Date | null {
    if (value === undefined) return null;
    const at = Date.parse(value);
    if (at <= now) {
      throw new DomainError('SCHEDULED_IN_PAST', `scheduledAt: ${value} is in the past`);
    }
    if (at - now > MAX_SCHEDULE_AHEAD_MS) {
      throw new DomainError(
        'SCHEDULED_TOO_FAR',
        `scheduledAt: ${value} is more than 30 days ahead`,
      );
    }
    return new Date(at);
  }

  /** The reply target must be one of the customer's visible messages. */
  async #assertReplyTarget(customerId: string, replyTo: string): Promise<void> {
    const target = await this.#options.store.messages.findById(customerId, replyTo);
    if (!target || target.deletedAt !== null || target.suppressed) {
      throw new DomainError('REPLY_NOT_FOUND', `replyTo: no message ${replyTo} exists`);
    }
  }

  #newMessage(
    customerId: string,
    body: SendMessageRequest,
    target: SendTarget,
    facts: {
      now: number;
      scheduledAt: Date | null;
      correlationId: string;
      attachments: MessageRecord['attachments'];
    },
  ): MessageRecord {
    const status = facts.scheduledAt ? 'scheduled' : 'queued';
    const createdAt = new Date(facts.now);
    return {
      id: newId('msg'),
      customerId,
      direction: 'outbound',
      status,
      to: target.to,
      conversationId: target.conversationId,
      providerChatId: target.providerChatId,
      isGroup: target.isGroup,
      from: target.from,
      instanceId: target.instanceId,
      channel: null,
      pinnedChannel: target.pinnedChannel,
      text: body.content?.text ?? '',
      mediaUrls: body.content?.mediaUrls ?? null,
      attachments: facts.attachments,
      effect: body.effect ?? null,
      messageType: body.messageType ?? null,
      // Mentions only mean something in a group; elsewhere they are dropped (spec).
      mentions: target.isGroup ? (body.mentions ?? null) : null,
      replyTo: body.replyTo ?? null,
      scheduledAt: facts.scheduledAt,
      idempotencyKey: body.idempotencyKey ?? null,
      callbackUrl: body.callbackUrl ?? null,
      metadata: body.metadata ?? null,
      // Ignored on chat-keyed sends (decision on createContact).
      createContact: target.conversationId === null ? (body.createContact ?? null) : null,
      routingPreference: target.preference,
      routingFallback: target.fallback,
      fallbackTriggered: false,
      externalId: null,
      errorCode: null,
      errorMessage: null,
      retryCount: 0,
      timeline: [{ status, at: facts.now, channel: null }],
      correlationId: facts.correlationId,
      suppressed: false,
      source: null,
      createdAt,
      updatedAt: createdAt,
      deletedAt: null,
    };
  }
}

/** A page of `limit` messages from `rows` (fetched with one extra to tell whether more exist). */
function page(
  rows: MessageRecord[],
  limit: number,
  sortKey: (message: MessageRecord) => number,
): MessagePage {
  const messages = rows.slice(0, limit);
  const last = messages.at(-1);
  const hasMore = rows.length > limit && last !== undefined;
  return {
    messages,
    pagination: {
      hasMore,
      nextCursor: hasMore ? encodeCursor({ at: sortKey(last), id: last.id }) : null,
    },
  };
}

/**
 * The answer to a repeated idempotency key: the message the key created, as it is now.
 * @throws {DomainError} ALREADY_DELETED when it was deleted.
 */
function replayOf(existing: MessageRecord, key: string): SendOutcome {
  if (existing.deletedAt !== null) {
    throw new DomainError(
      'ALREADY_DELETED',
      `The message ${existing.id} that idempotencyKey ${key} created was deleted; use a new key to send again`,
    );
  }
  return { created: false, message: existing };
}

/** `filters` without its undefined entries (the store's optional fields are absent, not undefined). */
function definedOnly<T extends object>(filters: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
