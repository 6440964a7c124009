import type {
  Channel,
  HealthStatus,
  HealthWarningCode,
  MessageEffect,
} from '@switchboard/contract';
import type { z } from 'zod';
import type { ProviderCapabilities } from './provider-capabilities';
import type { ProviderFailure } from './provider-error';
import type { ProviderDeliveryStatus, ProviderEventSink } from './provider-events';
import type { ProviderLeases } from './provider-leases';
import type {
  ProviderDestination,
  ProviderMessageRef,
  ProviderOperation,
} from './provider-operation';
import type { ProviderStateStore } from './provider-state-store';
import type { WhatsAppSessionPort } from './whatsapp-session-port';

/** A file to send: the bytes, or an https URL the provider (or its upstream) fetches. */
export interface ProviderOutboundAttachment {
  /** The content. */
  source: { kind: 'bytes'; data: Uint8Array } | { kind: 'url'; url: string };
  /** MIME type; the gateway resolves one before calling the provider. */
  mimeType: string;
  /** File name shown to the recipient; adapters that need one derive it from the MIME type. */
  filename?: string;
  /** Send as a voice memo (iMessage audio message, WhatsApp push-to-talk), not a file. */
  isAudioMessage?: boolean;
  /**
   * For bytes: a signed, expiring (24 h), unguessable URL that serves them without an API key,
   * for upstreams that only take media by URL (Twilio's `MediaUrl`).
   */
  publicUrl?: string;
}

/** A mention of a group member inside the text (honoured on WhatsApp group sends). */
export interface ProviderMention {
  /** The member's address (E.164 or WhatsApp handle). */
  address: string;
  /** Offset of the mention in the text, in UTF-16 code units. */
  start: number;
  /** Length of the mention in the text. */
  length: number;
}

/** One delivery attempt of a message on one channel. */
export interface ProviderSendRequest extends ProviderOperation {
  /** The recipient or the chat. */
  to: ProviderDestination;
  /** The gateway's message id (`msg_…`): stable across retries, for correlation upstream. */
  messageId: string;
  /** The attempt number: 0 for the first send, then the message's `retryCount`. */
  attempt: number;
  /**
   * Unique per (message, attempt, channel), and the same when a crashed worker re-drives that
   * attempt, so upstreams that dedupe on it (BlueBubbles `tempGuid`) never send twice. Echoed on
   * status events as `attemptId` where the upstream allows.
   */
  attemptId: string;
  /** Text; omitted or empty when media carries the message. */
  text?: string;
  /** Image URLs; 2 or more make one carousel. */
  mediaUrls?: readonly string[];
  /**
   * `carousel` when the caller asked for one (`messageType`): the `mediaUrls` go out as one
   * gallery where the upstream can group them. Never on whatsapp (the spec drops it there).
   */
  messageType?: 'carousel';
  /** Files, voice memos and videos. */
  attachments?: readonly ProviderOutboundAttachment[];
  /** An iMessage effect; other channels ignore it. */
  effect?: MessageEffect;
  /** The message this one replies to or quotes. */
  replyTo?: ProviderMessageRef;
  /** Mentions inside `text`. */
  mentions?: readonly ProviderMention[];
  /** Save the recipient as a contact where the upstream can. */
  createContact?: boolean;
}

/** One upstream message of a send that became several. */
export interface ProviderSentPart {
  /** The upstream's id of this part; its status events carry it. */
  externalId: string;
  /** What it carries: the text (and whatever rides with it), or one attachment. */
  kind: 'text' | 'attachment';
}

/** What a provider answers when it accepted a send. */
export interface ProviderSendResult {
  /**
   * The provider's id of the message (of its text part, when it became several): edits, unsends,
   * reactions and replies address it.
   */
  externalId: string;
  /**
   * Every upstream message of the send, in order, when it became several (an SMS with three
   * attachments is three MMS; Twilio takes ten media per message): the message is `sent` when
   * all are, `delivered` when all are, `failed` when any is. Omitted for one upstream message.
   */
  parts?: readonly ProviderSentPart[];
  /** The provider chat the message went to, when the upstream tells (BlueBubbles, Baileys). */
  chatId?: string;
  /**
   * SMS segments the upstream bills the send as (Twilio's `num_segments`, summed over parts),
   * when it tells; shown on the message.
   */
  segments?: number;
}

/** Asking which channels can reach an address. */
export interface ProviderAvailabilityRequest {
  /** E.164 or e-mail style address. */
  address: string;
  /** The instance address to ask through (a WhatsApp session); any suitable one when omitted. */
  from?: string;
}

/** Which of the provider's channels can reach an address, and what else it knows about it. */
export interface ProviderAvailability {
  /** The address asked about. */
  address: string;
  /**
   * Reachability per channel, only for channels this provider serves: `true` (yes), `false` (no),
   * absent (unknown: the send routes and lets the upstream decide). The gateway merges the answers
   * of the instances serving each channel.
   */
  channels: Partial<Record<Channel, boolean>>;
  /** FaceTime reachability, from providers that know it (the iMessage instance). */
  facetime?: boolean;
  /** True when the recipient has a Focus mode on, from providers that know it. */
  focused?: boolean;
  /** The Focus mode's name, when `focused`. */
  focusMode?: string;
  /** When the provider probed it (epoch milliseconds). */
  checkedAt: number;
  /**
   * True when the answer reflects a degraded upstream (BlueBubbles' helper disconnected, a
   * WhatsApp session not connected) rather than the recipient: it is used, never cached.
   */
  transient?: boolean;
}

/** A health value of a provider instance. */
export type ProviderHealthStatus = z.infer<typeof HealthStatus>;

/** Why an instance is degraded: the spec's four BlueBubbles conditions, and upstream trouble. */
export type ProviderHealthWarningCode = HealthWarningCode;

/** One reason an instance is not fully healthy. */
export interface ProviderHealthWarning {
  /** Machine-readable reason. */
  code: ProviderHealthWarningCode;
  /** Human-readable explanation, shown to operators. */
  message: string;
}

/** The outcome of one health check of an instance. */
export interface ProviderHealth {
  /** The overall value. */
  status: ProviderHealthStatus;
  /** What is wrong; empty when healthy. A later check without a warning clears it. */
  warnings: ProviderHealthWarning[];
  /** When the check ran (epoch milliseconds). */
  checkedAt: number;
}

/** The upstream's current view of a message, for reconciling missed status updates. */
export interface ProviderStatusSnapshot {
  /** The furthest status the upstream knows. */
  status: ProviderDeliveryStatus;
  /** Why it failed, when `failed`. */
  error?: ProviderFailure;
}

/** An HTTP request an upstream sent to the provider's webhook route. */
export interface ProviderWebhookRequest {
  /** HTTP method. */
  method: string;
  /** The full public URL the upstream called (Twilio signs it), including the query string. */
  url: string;
  /** Request headers, lower-cased names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The raw body, exactly as received (signatures cover the bytes). */
  rawBody: Uint8Array;
}

/** The answer to an upstream's webhook call. */
export interface ProviderWebhookResponse {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers?: Readonly<Record<string, string>>;
  /** Response body (Twilio expects `<Response/>`). */
  body?: string;
}

/** A minimal structured logger; pino's logger fits. */
export interface ProviderLogger {
  /** Logs at debug level. */
  debug(details: Record<string, unknown>, message: string): void;
  /** Logs at info level. */
  info(details: Record<string, unknown>, message: string): void;
  /** Logs at warn level. */
  warn(details: Record<string, unknown>, message: string): void;
  /** Logs at error level. */
  error(details: Record<string, unknown>, message: string): void;
}

/** What the gateway gives a provider when it starts it. */
export interface ProviderStartContext {
  /** The one entry point of the provider's events. */
  sink: ProviderEventSink;
  /** Durable state scoped to this instance. */
  state: ProviderStateStore;
  /** Leases scoped to this instance, held in this process's name (one socket per number). */
  leases: ProviderLeases;
  /** Logger bound to this instance. */
  logger: ProviderLogger;
  /** The public URL where the gateway routes upstream webhooks to `handleWebhook`, if mounted. */
  webhookUrl?: string;
  /**
   * True when `url` is an ingress URL of this gateway that no instance answers to any more (an
   * old token, a deleted instance): a provider that registers its `webhookUrl` upstream removes
   * such registrations. False for any other URL, which is never the provider's to remove.
   */
  isStaleIngressUrl?: (url: string) => Promise<boolean>;
}

/**
 * The provider port: one upstream (a Mac running BlueBubbles, a Twilio account, a set of
 * WhatsApp sessions, the simulator) serving some channels. The required core is what the gateway
 * needs of every adapter: start and stop, send (statuses then arrive through the sink),
 * availability and health; the optional hooks below serve upstreams that have them (webhooks,
 * status lookups, sockets held by another process). Operations only some upstreams can do are
 * `capabilities`, each declaring its channels: the gateway answers `CHANNEL_NOT_SUPPORTED` for
 * an absent one (`requireCapability`), so no adapter carries refusal stubs. Every method either
 * resolves or rejects with a `ProviderError` carrying a spec error code. Providers never touch
 * the store: what they learn flows through the sink, what they must keep goes to the state store
 * they are given.
 */
export interface MessagingProvider {
  /** The adapter name, as instances are configured with it (`simulator`, `bluebubbles`, …). */
  readonly provider: string;
  /** The instance's friendly name. */
  readonly instanceName: string;
  /** The channels this instance serves. */
  readonly channels: readonly Channel[];
  /** The optional operations the upstream can do, each on its channels (`{}` for none). */
  readonly capabilities: ProviderCapabilities;
  /** WhatsApp session operations, when the provider links WhatsApp devices. */
  readonly whatsappSessions?: WhatsAppSessionPort;

  /** Connects to the upstream and starts reporting events to `context.sink`. */
  start(context: ProviderStartContext): Promise<void>;
  /** Stops reporting events, cancels pending work and disconnects; resolves when quiet. */
  stop(): Promise<void>;

  /**
   * True when the connection that sends from `from` lives in another server process (a WhatsApp
   * socket held under another process's lease): the gateway leaves the send queued for that
   * process's dispatcher instead of claiming it here. Absent: every process can send.
   */
  sendsElsewhere?(from: string): boolean;
  /**
   * Hands one delivery attempt to the upstream. Resolving means accepted, not sent: `sent`,
   * `delivered`, `read` and asynchronous failures arrive as `message.status` events.
   */
  send(request: ProviderSendRequest): Promise<ProviderSendResult>;
  /** Which of the provider's channels reach `request.address`, probed now (the gateway caches). */
  checkAvailability(request: ProviderAvailabilityRequest): Promise<ProviderAvailability>;
  /** Checks the instance's health now. */
  health(): Promise<ProviderHealth>;

  /**
   * The upstream's current status of a message, or null when it does not know the message: for
   * reconciling updates missed while the gateway was down or a webhook was lost.
   */
  fetchStatus?(
    request: ProviderOperation & { message: ProviderMessageRef },
  ): Promise<ProviderStatusSnapshot | null>;
  /**
   * Handles a webhook call from the upstream (BlueBubbles, Twilio), verifying it and turning it
   * into sink events before answering.
   */
  handleWebhook?(request: ProviderWebhookRequest): Promise<ProviderWebhookResponse>;
}
