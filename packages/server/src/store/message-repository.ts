import type {
  Channel,
  MediaConversion,
  MessageEffect,
  MessageStatus,
  Metadata,
} from '@switchboard/contract';

/** `outbound` for sends, `inbound` for messages received by a customer's numbers. */
export type MessageDirection = 'outbound' | 'inbound';

/** One status a message reached. */
export interface StoredTimelineEntry {
  /** The status. */
  status: MessageStatus;
  /** When, in epoch milliseconds. */
  at: number;
  /** The channel it happened on; null before routing picked one. */
  channel: Channel | null;
}

/** A file of a message, without its bytes. */
export interface StoredAttachment {
  /** Position in the send's `attachments` (the key of its bytes, for `base64` ones). */
  position: number;
  /** MIME type, given or inferred. */
  mimeType: string | null;
  /** File name. */
  filename: string | null;
  /** Size in bytes; null while unknown (a URL not fetched). */
  totalBytes: number | null;
  /** Sent as a voice memo. */
  isAudioMessage: boolean;
  /** Source URL of a `url` attachment. */
  url: string | null;
  /** True when the bytes are stored (`base64` attachments). */
  hasData: boolean;
  /**
   * The id of the stored bytes of an inbound attachment (`att_…`), whose download URL is signed
   * at each read; null for sends and for bytes that could not be stored.
   */
  storedId: string | null;
  /** How the file was converted for the channel it was sent on (outbound). */
  conversion?: MediaConversion;
  /** Browser-playable copies of an inbound voice note or video, stored beside the original. */
  renditions?: StoredRendition[];
}

/** A browser-playable copy of an inbound file. */
interface StoredRendition {
  /** The id of its stored bytes (`att_…`). */
  storedId: string;
  /** Its MIME type. */
  mimeType: string;
  /** Its size in bytes. */
  totalBytes: number;
}

/** A mention inside the text. */
export interface StoredMention {
  /** The member's address. */
  address: string;
  /** Offset in UTF-16 code units. */
  start: number;
  /** Length in UTF-16 code units. */
  length: number;
}

/** Why a `queued` message waits for its number's send policy, and until when. */
export interface StoredHold {
  /** What holds it. */
  code: 'daily_cap' | 'cold_contact_cap' | 'warm_up' | 'restricted' | 'paused';
  /** The hold in one sentence. */
  message: string;
  /** When the allowance returns (epoch milliseconds); for `paused`, the hold window's end. */
  until: number;
}

/** A message as stored. */
export interface MessageRecord {
  /** `msg_<uuid v7>`. */
  id: string;
  /** The owning customer. */
  customerId: string;
  /** Outbound or inbound. */
  direction: MessageDirection;
  /** Lifecycle status. */
  status: MessageStatus;
  /** Recipient (outbound) or receiving address (inbound); null on chat-keyed sends. */
  to: string | null;
  /** The chat of a chat-keyed send (or of an inbound message, when known). */
  conversationId: string | null;
  /** The provider chat id the message goes to or came from, when it is a chat. */
  providerChatId: string | null;
  /** True when the message belongs to a group chat. */
  isGroup: boolean;
  /** Sender address. */
  from: string;
  /** The instance that sends (or received) it. */
  instanceId: string;
  /** The delivery channel; null until routing picked one. */
  channel: Channel | null;
  /** The channel a chat-keyed or group send is pinned to (routing does not apply); else null. */
  pinnedChannel: Channel | null;
  /** Text; empty for media-only messages. */
  text: string;
  /** Image URLs of the send. */
  mediaUrls: string[] | null;
  /** Files, without bytes. */
  attachments: StoredAttachment[];
  /** The iMessage effect requested. */
  effect: MessageEffect | null;
  /** `carousel` when asked for. */
  messageType: 'carousel' | null;
  /** Mentions of the send. */
  mentions: StoredMention[] | null;
  /** Id of the message this one replies to. */
  replyTo: string | null;
  /** When a scheduled send is due. */
  scheduledAt: Date | null;
  /** The caller's idempotency key. */
  idempotencyKey: string | null;
  /** Per-message webhook URL. */
  callbackUrl: string | null;
  /** The caller's key-value data. */
  metadata: Metadata | null;
  /** Save the recipient as a contact; null when not asked. */
  createContact: boolean | null;
  /** Channels to try, in order. */
  routingPreference: Channel[];
  /** Try the next channel when one cannot reach the recipient or fails. */
  routingFallback: boolean;
  /** True when the current attempt went out on a channel other than the first preferred one. */
  fallbackTriggered: boolean;
  /** Provider id of the current attempt. */
  externalId: string | null;
  /** Why the message failed. */
  errorCode: string | null;
  /** Human-readable failure reason. */
  errorMessage: string | null;
  /** Retries so far; also the number of the current attempt. */
  retryCount: number;
  /** Every status reached, in order. */
  timeline: StoredTimelineEntry[];
  /** Correlation id of the request that created it, carried by every event of the message. */
  correlationId: string;
  /** A verification code kept only for the signup-codes endpoint: never listed nor returned. */
  suppressed: boolean;
  /** `device` for an outbound message the instance's own device sent (not the API); else null. */
  source: 'device' | null;
  /**
   * SMS segments the upstream counted for the send (Twilio's `num_segments`, summed over its
   * parts); null or absent when unknown or not sms.
   */
  segments?: number | null;
  /** Why the `queued` message waits for its number's send policy; null or absent when it does not. */
  hold?: StoredHold | null;
  /**
   * When retention redacted the body and media (the record and its timeline stay); null or absent
   * while the content is kept.
   */
  redactedAt?: Date | null;
  /** Creation time. */
  createdAt: Date;
  /** Last change. */
  updatedAt: Date;
  /** Soft-delete time. */
  deletedAt: Date | null;
}

/** The fields of a message that change after it was created. */
export type MessagePatch = Partial<
  Pick<
    MessageRecord,
    | 'status'
    | 'channel'
    | 'text'
    | 'fallbackTriggered'
    | 'externalId'
    | 'instanceId'
    | 'segments'
    | 'hold'
    | 'errorCode'
    | 'errorMessage'
    | 'retryCount'
    | 'timeline'
    | 'attachments'
    | 'correlationId'
    | 'updatedAt'
    | 'deletedAt'
  >
>;

/** Where a newest-first page continues: after this (createdAt, id). */
interface CreatedCursor {
  /** `createdAt` of the last message of the previous page. */
  createdAt: Date;
  /** `id` of the last message of the previous page. */
  id: string;
}

/** Where a soonest-due-first page of scheduled messages continues. */
export interface ScheduledCursor {
  /** `scheduledAt` of the last message of the previous page. */
  scheduledAt: Date;
  /** `id` of the last message of the previous page. */
  id: string;
}

/** Filters and page of a message list. */
export interface MessageListQuery {
  /** Only this status. */
  status?: MessageStatus;
  /** Only this recipient. */
  to?: string;
  /** Only this sender. */
  from?: string;
  /** Only messages routed to this channel. */
  channel?: Channel;
  /** Only messages created at or after this time. */
  createdAfter?: Date;
  /** Only messages created before this time. */
  createdBefore?: Date;
  /** Page size. */
  limit: number;
  /** Continue after this message. */
  after?: CreatedCursor;
}

/**
 * What the delivery watchdog reads of one outbound message: the two instants of its timeline it
 * judges by, picked out by the database (a sample holds up to 15,000 sends; their whole timelines,
 * parsed, kept ~7 MB more in the heap of a server on a million messages; decision 0683).
 */
export interface SendOutcomeRecord {
  /** The sender number. */
  from: string;
  /** The channel it went out on. */
  channel: Channel;
  /** Its status now. */
  status: MessageStatus;
  /** When it first reached `sent` (epoch milliseconds); null when its timeline has no `sent`. */
  sentAt: number | null;
  /** When it first reached `delivered` or `read` (epoch milliseconds); null when it has not. */
  deliveredAt: number | null;
}

/** Outbound messages of a window by their status now (the operator's stats). */
export interface OutboundTally {
  /** Every outbound message of the window. */
  accepted: number;
  /** How many are `sent`. */
  sent: number;
  /** How many are `delivered` or `read`. */
  delivered: number;
  /** How many are `failed`. */
  failed: number;
  /** How many fell back to another channel. */
  fallbacks: number;
}

/** Adds up rows of (status, fallback, count) into an {@link OutboundTally}. */
export function toOutboundTally(
  rows: readonly { status: MessageStatus; fallback: boolean; count: number }[],
): OutboundTally {
  const tally: OutboundTally = { accepted: 0, sent: 0, delivered: 0, failed: 0, fallbacks: 0 };
  for (const { status, fallback, count } of rows) {
    tally.accepted += count;
    if (fallback) tally.fallbacks += count;
    if (status === 'sent') tally.sent += count;
    if (status === 'delivered' || status === 'read') tally.delivered += count;
    if (status === 'failed') tally.failed += count;
  }
  return tally;
}

/** Which attempt of a message: its retry and channel (an attempt's id is made of them). */
export interface AttemptKey {
  /** The message's `retryCount` when the attempt was made. */
  retryCount: number;
  /** The attempt's channel. */
  channel: Channel;
}

/** Further conditions of {@link MessageRepository.transition}. */
export interface TransitionOptions {
  /** A deleted message changes too. */
  includeDeleted?: boolean;
  /** Only while the message is in this retry (its `retryCount`). */
  retryCount?: number;
}

/**
 * Messages. Customer-facing reads are scoped by customer; the worker-side reads (dispatcher,
 * scheduler, provider events) look messages up by id or state across customers.
 */
export interface MessageRepository {
  /**
   * Stores a new message; false (and nothing stored) when the customer already has a message
   * with the same idempotency key.
   */
  insert(message: MessageRecord): Promise<boolean>;
  /** The customer's message with this id, deleted and suppressed ones included. */
  findById(customerId: string, id: string): Promise<MessageRecord | undefined>;
  /** The message with this id, whoever owns it (workers only). */
  findByIdInAnyCustomer(id: string): Promise<MessageRecord | undefined>;
  /** The customer's message created with this idempotency key. */
  findByIdempotencyKey(customerId: string, key: string): Promise<MessageRecord | undefined>;
  /** The latest message an instance sent or received under this provider id. */
  findByExternalId(instanceId: string, externalId: string): Promise<MessageRecord | undefined>;
  /**
   * A page of the customer's visible messages (not deleted, not suppressed), newest first; every
   * customer's when `customerId` is undefined (the operator).
   */
  list(customerId: string | undefined, query: MessageListQuery): Promise<MessageRecord[]>;
  /** A page of the customer's visible `scheduled` messages, soonest due first. */
  listScheduled(
    customerId: string,
    query: { limit: number; after?: ScheduledCursor },
  ): Promise<MessageRecord[]>;
  /** Outbound messages created at or after `since`, every customer's, by their status now. */
  tallyOutboundSince(since: Date): Promise<OutboundTally>;
  /** How many messages (deleted or not) are in each of `statuses` (metrics; status index). */
  countByStatus(
    statuses: readonly MessageStatus[],
  ): Promise<Partial<Record<MessageStatus, number>>>;
  /** Ids of not-deleted messages in one of `statuses`, oldest first (dispatcher, recovery). */
  idsInStatus(statuses: readonly MessageStatus[], limit: number): Promise<string[]>;
  /** Ids of not-deleted scheduled messages due at `now`, soonest first (scheduler). */
  dueScheduledIds(now: Date, limit: number): Promise<string[]>;
  /**
   * Outbound messages in one of `statuses` changed since `since` that have a provider id:
   * candidates for reconciling updates missed while the server was down.
   */
  unsettledSince(statuses: readonly MessageStatus[], since: Date, limit: number): Promise<string[]>;
  /**
   * Ids of not-deleted messages in `status` unchanged since `before`, longest unchanged first:
   * work a process that died may have left (several processes on one database).
   */
  staleIds(status: MessageStatus, before: Date, limit: number): Promise<string[]>;
  /**
   * The outbound messages of an instance in one of `statuses` changed since `since` (deleted ones
   * included), most recently changed first, at most `limit`: the delivery watchdog's sample.
   */
  recentSends(
    instanceId: string,
    statuses: readonly MessageStatus[],
    since: Date,
    limit: number,
  ): Promise<SendOutcomeRecord[]>;
  /**
   * Takes a message left in `status` and unchanged since `before` by setting its `updatedAt` to
   * `now`; of processes racing for it, exactly one gets `true`.
   */
  claimStale(id: string, status: MessageStatus, before: Date, now: Date): Promise<boolean>;
  /**
   * Applies `patch` when the message is still in one of `from` (and not deleted, unless
   * `includeDeleted`; and in retry `retryCount`, when given); false when another worker or
   * request changed it first.
   */
  transition(
    id: string,
    from: readonly MessageStatus[],
    patch: MessagePatch,
    options?: TransitionOptions,
  ): Promise<boolean>;
  /**
   * Records the provider id of the message's current attempt (and its segment count, when
   * known): only while the message is still in `attempt`'s retry and on its channel, and its
   * provider id is unset or already `externalId` (then only the count is taken: status updates
   * that race the send wait on the attempt and no longer record the id first, so this is a
   * guard). A message that has moved on (a retry, a fallback) is left alone.
   */
  recordProviderId(
    id: string,
    attempt: AttemptKey,
    externalId: string,
    segments?: number,
  ): Promise<void>;
  /** Applies `patch` unconditionally. */
  update(id: string, patch: MessagePatch): Promise<void>;
  /** Stores the bytes of a `base64` attachment. */
  insertAttachmentData(messageId: string, position: number, data: Uint8Array): Promise<void>;
  /** The stored attachment bytes of a message, by position. */
  attachmentData(messageId: string): Promise<Map<number, Uint8Array>>;
}
