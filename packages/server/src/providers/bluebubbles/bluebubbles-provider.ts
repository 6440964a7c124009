import type { Channel } from '@switchboard/contract';
import {
  healthWarning,
  type MessagingProvider,
  OrderedEventDelivery,
  type ProviderAvailability,
  type ProviderAvailabilityRequest,
  type ProviderChat,
  type ProviderChatRequest,
  type ProviderCreateGroupRequest,
  type ProviderDestination,
  type ProviderEditRequest,
  ProviderError,
  type ProviderHealth,
  type ProviderHealthWarning,
  type ProviderInboundAttachment,
  type ProviderInboundEvent,
  type ProviderMessageRef,
  type ProviderOperation,
  type ProviderOutboundAttachment,
  type ProviderParticipant,
  type ProviderParticipantRequest,
  type ProviderReactRequest,
  type ProviderRenameGroupRequest,
  type ProviderSendRequest,
  type ProviderSendResult,
  type ProviderStartContext,
  type ProviderStatusSnapshot,
  type ProviderTypingRequest,
  type ProviderUnsendRequest,
  type ProviderWebhookRequest,
  type ProviderWebhookResponse,
  SinkUnavailableError,
} from '@switchboard/provider-kit';
import {
  BlueBubblesApi,
  BlueBubblesApiError,
  type BlueBubblesChat,
  type BlueBubblesFile,
  type BlueBubblesMessage,
  type BlueBubblesServerInfo,
} from './bluebubbles-api';
import {
  channelOfChat,
  chatOf,
  contactEvents,
  deviceSendEvent,
  EFFECT_IDS,
  faceTimeStatusOf,
  isGroupChat,
  type MappingContext,
  ownSendStatuses,
  sendFailure,
} from './bluebubbles-events';
import { BlueBubblesSendLedger } from './bluebubbles-send-ledger';

/** The adapter name of BlueBubbles instances. */
export const BLUEBUBBLES_PROVIDER = 'bluebubbles';

/** The channels a BlueBubbles instance can serve: iMessage, and SMS through the Mac's iPhone. */
export const BLUEBUBBLES_CHANNELS: readonly Channel[] = ['imessage', 'sms'];

const E164 = /^\+[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Messages found per reconciliation page. */
const RECONCILE_PAGE = 200;
/** How far back the first reconciliation of a new instance looks. */
const FIRST_RECONCILE_WINDOW_MS = 60_000;
/** Overlap of two reconciliations (BlueBubbles dates messages to the millisecond, clocks drift). */
const RECONCILE_OVERLAP_MS = 5_000;
/** Upstream ids remembered in memory to report each event once per process. */
const REPORTED_MEMORY = 10_000;
/** How long a server-info answer is reused for gating operations. */
const INFO_TTL_MS = 30_000;

/** Settings of one BlueBubbles instance. */
export interface BlueBubblesProviderOptions {
  /** The instance's friendly name. */
  instanceName: string;
  /** The channels this instance serves (`imessage`, `sms`). */
  channels: readonly Channel[];
  /** Base URL of BlueBubbles Server. */
  serverUrl: string;
  /** The server password. */
  password: string;
  /** `auto`: the Private API when its helper is connected, else AppleScript. */
  sendMethod: 'auto' | 'private-api' | 'apple-script';
  /**
   * The Mac's iMessage address as customers' numbers name it (E.164); when omitted, the iMessage
   * account BlueBubbles detects.
   */
  address?: string;
  /** Deadline of one ordinary call (default 15 s). */
  timeoutMs?: number;
  /** Deadline of a send (default 150 s: AppleScript sends can take 120 s to answer). */
  sendTimeoutMs?: number;
  /** The largest inbound attachment downloaded (default 100 MiB). */
  maxAttachmentBytes?: number;
  /**
   * Fetches a customer's media URL with the gateway's URL-safety guard (BlueBubbles takes files,
   * not URLs). Without it, URL media cannot be sent.
   */
  fetchMedia?: (url: string) => Promise<{ data: Uint8Array; contentType: string | undefined }>;
  /** The time source (epoch ms); tests inject one. */
  now?: () => number;
}

/**
 * iMessage (and SMS through the iPhone) through a Mac running BlueBubbles Server (see
 * docs/providers/bluebubbles.md). Sends carry the attempt id as `tempGuid` and are written down
 * before they are made; the Mac's webhooks (unsigned, never retried) are confirmed with the Mac
 * before they are believed, and `POST /message/query` finds what a lost webhook said, at start
 * and at every health check.
 */
export class BlueBubblesProvider implements MessagingProvider {
  /** The adapter name. */
  readonly provider = BLUEBUBBLES_PROVIDER;
  /** The instance's friendly name. */
  readonly instanceName: string;
  /** The channels served. */
  readonly channels: readonly Channel[];

  readonly #options: BlueBubblesProviderOptions;
  readonly #api: BlueBubblesApi;
  readonly #now: () => number;
  #context: ProviderStartContext | undefined;
  #ledger: BlueBubblesSendLedger | undefined;
  #delivery: OrderedEventDelivery | undefined;
  #info: { value: BlueBubblesServerInfo; at: number } | undefined;
  #address: string | undefined;
  #reconciling: Promise<void> | undefined;
  /** Handle ROWIDs to addresses (group changes name members by ROWID). */
  readonly #handles = new Map<number, string>();
  /** Upstream ids reported by this process, oldest first (bounded). */
  readonly #reported = new Set<string>();
  /** Callers of FaceTime rings not yet paired with their call status, with the ring's time. */
  readonly #rings = new Map<string, number>();

  /** A BlueBubbles instance; nothing happens until `start`. */
  constructor(options: BlueBubblesProviderOptions) {
    this.instanceName = options.instanceName;
    this.channels = options.channels;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#api = new BlueBubblesApi({
      serverUrl: options.serverUrl,
      password: options.password,
      timeoutMs: options.timeoutMs ?? 15_000,
      sendTimeoutMs: options.sendTimeoutMs ?? 150_000,
    });
    this.#address = options.address;
  }

  /**
   * Registers the ingress URL as a BlueBubbles webhook (once), reads the server's info and
   * reconciles what happened while the gateway was away. An unreachable Mac does not fail the
   * start: the health check reports it and tries again.
   */
  async start(context: ProviderStartContext): Promise<void> {
    this.#context = context;
    this.#ledger = new BlueBubblesSendLedger(context.state, this.#now);
    this.#delivery = new OrderedEventDelivery(context.sink, context.logger, {
      attempts: 10,
      retryDelaysMs: [200, 1_000, 5_000],
      retryIf: (error) => error instanceof SinkUnavailableError,
    });
    if (context.webhookUrl === undefined) {
      context.logger.warn(
        { instance: this.instanceName },
        'no public ingress URL: BlueBubbles cannot post events; set PUBLIC_BASE_URL (reconciliation still finds messages)',
      );
    }
    try {
      await this.#serverInfo(true);
      await this.#registerWebhook();
    } catch (error) {
      context.logger.warn(
        { instance: this.instanceName, err: error },
        'BlueBubbles is not reachable yet; the health check retries',
      );
    }
    this.#reconcileInBackground();
  }

  /** Stops reporting events. */
  async stop(): Promise<void> {
    this.#delivery?.close();
    const reconciling = this.#reconciling;
    this.#context = undefined;
    await reconciling?.catch(() => undefined);
    await this.#delivery?.idle().catch(() => undefined);
    this.#delivery = undefined;
    this.#ledger = undefined;
  }

  // ---- sends ----

  /**
   * Sends one attempt. Text goes to `/message/text` (or `/chat/new` for a contact with no chat
   * yet), one file to `/message/attachment`, text with files to `/message/multipart` through the
   * Private API (one message), or as separate messages without it.
   */
  async send(request: ProviderSendRequest): Promise<ProviderSendResult> {
    const { ledger } = this.#started(request, 'send');
    const known = await ledger.entry(request.attemptId);
    if (known?.guid !== undefined) {
      return { externalId: known.guid, ...(known.chatGuid ? { chatId: known.chatGuid } : {}) };
    }
    if (known !== undefined) {
      // Begun before and not known to have finished (a crash, an uncertain answer): look first.
      const found = await this.#findSent(request.attemptId, known).catch(() => undefined);
      if (found) return found;
    }
    const files = await this.#files(request);
    const text = request.text ?? '';
    const chatGuid = await this.#chatFor(request.channel, request.to);
    await ledger.begin(request.attemptId, {
      text,
      startedAt: this.#now(),
      ...(chatGuid ? { chatGuid } : {}),
    });
    try {
      const result = await this.#sendParts(request, chatGuid, text, files);
      await ledger.sent(request.attemptId, result.externalId, result.chatId);
      if (result.chatId && request.to.type === 'address') {
        await ledger.rememberChat(request.channel, request.to.address, result.chatId);
      }
      return result;
    } catch (error) {
      const outcome = await this.#sendError(request, error);
      if (outcome instanceof FoundSend) return outcome.result;
      throw outcome;
    }
  }

  async #sendParts(
    request: ProviderSendRequest,
    chatGuid: string | undefined,
    text: string,
    files: BlueBubblesFile[],
  ): Promise<ProviderSendResult> {
    const extras = await this.#sendExtras(request);
    const method = extras.privateApi ? 'private-api' : await this.#method();
    const tempGuid = request.attemptId;
    if (files.length === 0) {
      if (chatGuid === undefined) {
        const address = this.#addressOf(request.to);
        const chat = await this.#api.newChat({
          addresses: [address],
          message: text,
          service: request.channel === 'sms' ? 'SMS' : 'iMessage',
          method,
          tempGuid,
        });
        const sent = chat.messages?.[0];
        if (!sent)
          throw new BlueBubblesApiError(
            'BlueBubbles created no message',
            500,
            undefined,
            undefined,
          );
        return this.#result(request, sent, chat.guid);
      }
      const sent = await this.#api.sendText({
        chatGuid,
        message: text,
        tempGuid,
        method,
        ...extras.fields,
      });
      return this.#result(request, sent, chatGuid);
    }
    const target = chatGuid ?? this.#inferredChat(request);
    if (files.length === 1 && text === '') {
      const file = files[0] as BlueBubblesFile;
      const sent = await this.#api.sendAttachment(
        {
          chatGuid: target,
          name: file.name,
          tempGuid,
          method,
          ...(request.attachments?.[0]?.isAudioMessage ? { isAudioMessage: 'true' } : {}),
          ...stringFields(extras.fields),
        },
        file,
      );
      return this.#result(request, sent, target);
    }
    if (await this.#privateApiReady()) {
      // One message of several parts (a gallery): text first, then each file.
      const parts: Record<string, unknown>[] = [];
      if (text !== '') parts.push({ partIndex: 0, text });
      for (const file of files) {
        const path = await this.#api.upload(file);
        parts.push({ partIndex: parts.length, attachment: path, name: file.name });
      }
      const sent = await this.#api.sendMultipart({
        chatGuid: target,
        tempGuid,
        parts,
        ...extras.fields,
      });
      return this.#result(request, sent, target);
    }
    // Without the Private API: the text, then each file as its own message.
    const sentParts: { externalId: string; kind: 'text' | 'attachment' }[] = [];
    if (text !== '') {
      const sent = await this.#api.sendText({ chatGuid: target, message: text, tempGuid, method });
      sentParts.push({ externalId: sent.guid, kind: 'text' });
    }
    for (const [index, file] of files.entries()) {
      const sent = await this.#api.sendAttachment(
        {
          chatGuid: target,
          name: file.name,
          tempGuid: `${tempGuid}:${index}`,
          method,
          ...(request.attachments?.[index]?.isAudioMessage ? { isAudioMessage: 'true' } : {}),
        },
        file,
      );
      sentParts.push({ externalId: sent.guid, kind: 'attachment' });
    }
    const [first] = sentParts;
    if (!first) throw new Error('a send makes at least one message');
    this.#fireSent(request, first.externalId, target);
    for (const part of sentParts.slice(1)) this.#fireSent(request, part.externalId, target);
    return {
      externalId: first.externalId,
      chatId: target,
      ...(sentParts.length > 1 ? { parts: sentParts } : {}),
    };
  }

  /** The answer of a one-message send; `sent` is reported once the gateway has it. */
  #result(
    request: ProviderSendRequest,
    sent: BlueBubblesMessage,
    chatGuid: string,
  ): ProviderSendResult {
    if (sent.error !== 0) {
      throw new BlueBubblesApiError('Message Send Error', 500, 'iMessage Error', sent);
    }
    this.#fireSent(request, sent.guid, chatGuid);
    return { externalId: sent.guid, chatId: chatGuid };
  }

  /** Reports `sent` right after the send answer (the webhook may never come). */
  #fireSent(request: ProviderSendRequest, guid: string, chatGuid: string): void {
    setImmediate(() => {
      this.#deliver({
        kind: 'message.status',
        channel: channelOfChat(chatGuid),
        occurredAt: new Date(this.#now()),
        upstreamEventId: `${guid}:sent`,
        externalId: guid,
        attemptId: request.attemptId,
        status: 'sent',
      }).catch(() => undefined);
    });
  }

  /** Effect and reply fields, which BlueBubbles only sends through the Private API. */
  async #sendExtras(
    request: ProviderSendRequest,
  ): Promise<{ privateApi: boolean; fields: Record<string, unknown> }> {
    const fields: Record<string, unknown> = {};
    if (request.effect !== undefined && request.channel === 'imessage') {
      fields.effectId = EFFECT_IDS[request.effect];
    }
    if (request.replyTo !== undefined && request.channel === 'imessage') {
      fields.selectedMessageGuid = request.replyTo.externalId;
      fields.partIndex = request.replyTo.partIndex ?? 0;
    }
    if (Object.keys(fields).length === 0) return { privateApi: false, fields };
    const reason = await this.#privateApiMissing();
    if (reason !== undefined) {
      throw new ProviderError(
        'IMESSAGE_SEND_FAILED',
        `effects and replies need the BlueBubbles Private API: ${reason}`,
        { channel: request.channel, fallback: true },
      );
    }
    return { privateApi: true, fields };
  }

  /** The files of a send, as bytes (URLs are fetched through the gateway's guard). */
  async #files(request: ProviderSendRequest): Promise<BlueBubblesFile[]> {
    const files: BlueBubblesFile[] = [];
    const sources: ProviderOutboundAttachment[] = [
      ...(request.attachments ?? []),
      ...(request.mediaUrls ?? []).map(
        (url): ProviderOutboundAttachment => ({ source: { kind: 'url', url }, mimeType: '' }),
      ),
    ];
    for (const [index, attachment] of sources.entries()) {
      if (attachment.source.kind === 'bytes') {
        files.push({
          data: attachment.source.data,
          mimeType: attachment.mimeType,
          name: attachment.filename ?? fileNameOf(attachment.mimeType, index),
        });
        continue;
      }
      const fetchMedia = this.#options.fetchMedia;
      if (!fetchMedia) {
        throw new ProviderError('VALIDATION_ERROR', 'this instance cannot fetch media URLs', {
          channel: request.channel,
        });
      }
      const url = attachment.source.url;
      const fetched = await fetchMedia(url).catch((error: unknown) => {
        throw new ProviderError(
          'VALIDATION_ERROR',
          `the media at ${url} could not be fetched: ${error instanceof Error ? error.message : String(error)}`,
          { channel: request.channel },
        );
      });
      const mimeType = attachment.mimeType || fetched.contentType || 'application/octet-stream';
      const lastSegment = new URL(url).pathname.split('/').at(-1);
      files.push({
        data: fetched.data,
        mimeType,
        name: attachment.filename ?? (lastSegment || fileNameOf(mimeType, index)),
      });
    }
    return files;
  }

  /** The BlueBubbles chat of a destination, looked up (never built, except as a last resort). */
  async #chatFor(channel: Channel, to: ProviderDestination): Promise<string | undefined> {
    if (to.type === 'chat') return to.chatId;
    const { ledger } = this.#started({ channel, from: '' }, 'send');
    const address = to.address;
    if (!E164.test(address) && !(channel === 'imessage' && EMAIL.test(address))) {
      throw ProviderError.unreachable(channel, address);
    }
    const remembered = await ledger.chatOf(channel, address);
    if (remembered !== undefined) return remembered;
    const service = channel === 'sms' ? 'SMS' : 'iMessage';
    for (const guid of [`${service};-;${address}`, `any;-;${address}`]) {
      const chat = await this.#api.chat(guid).catch((error: unknown) => {
        throw this.#apiError(error, channel, 'look up the chat');
      });
      if (chat) {
        await ledger.rememberChat(channel, address, chat.guid);
        return chat.guid;
      }
    }
    return undefined;
  }

  /** The direct chat GUID of an address with no chat yet, as BlueBubbles infers it for AppleScript. */
  #inferredChat(request: ProviderSendRequest): string {
    return `${request.channel === 'sms' ? 'SMS' : 'iMessage'};-;${this.#addressOf(request.to)}`;
  }

  #addressOf(to: ProviderDestination): string {
    return to.type === 'address' ? to.address : to.chatId;
  }

  /**
   * The error a failed send answers. A message the Mac created with an error (22: not on
   * iMessage) is certain; a timeout or a bare 500 is not (an AppleScript send can be delivered
   * and still answer 500 after two minutes): the Mac is asked first, and the send is reported as
   * a timeout, never re-sent blindly.
   */
  async #sendError(request: ProviderSendRequest, error: unknown): Promise<unknown> {
    const ledger = this.#ledger;
    if (error instanceof ProviderError) {
      await ledger?.refused(request.attemptId);
      return error;
    }
    if (!(error instanceof BlueBubblesApiError)) return error;
    const failed = error.data as BlueBubblesMessage | undefined;
    if (typeof failed?.error === 'number' && failed.error !== 0) {
      await ledger?.refused(request.attemptId);
      if (failed.error === 22 && request.to.type === 'address') {
        return ProviderError.unreachable(request.channel, request.to.address);
      }
      const failure = sendFailure(failed.error);
      return new ProviderError(failure.code, failure.message, {
        channel: request.channel,
        providerCode: failure.providerCode,
        fallback: true,
        cause: error,
      });
    }
    if (error.uncertain || /already queued/i.test(error.message)) {
      const entry = await ledger?.entry(request.attemptId);
      const found = entry
        ? await this.#findSent(request.attemptId, entry).catch(() => undefined)
        : undefined;
      if (found) return new FoundSend(found);
      return new ProviderError(
        'PROVIDER_TIMEOUT',
        `${error.message}; the message may still arrive, so it is not sent again`,
        { channel: request.channel, cause: error, retryable: false, fallback: false },
      );
    }
    await ledger?.refused(request.attemptId);
    return this.#apiError(error, request.channel, 'send');
  }

  /**
   * Whether an attempt became a message after all: its GUID from a webhook, or a message the Mac
   * sent into its chat since it started with the same text.
   */
  async #findSent(
    attemptId: string,
    entry: { chatGuid?: string; text: string; startedAt: number; guid?: string },
  ): Promise<ProviderSendResult | undefined> {
    const ledger = this.#ledger;
    if (!ledger) return undefined;
    const now = await ledger.entry(attemptId);
    if (now?.guid !== undefined) {
      return { externalId: now.guid, ...(now.chatGuid ? { chatId: now.chatGuid } : {}) };
    }
    const messages = await this.#api.queryMessages(entry.startedAt - 2_000, 0, RECONCILE_PAGE);
    const match = messages.find(
      (message) =>
        message.isFromMe &&
        (message.tempGuid === attemptId ||
          ((entry.chatGuid === undefined || chatOf(message) === entry.chatGuid) &&
            (message.text ?? '').replaceAll('\ufffc', '').trim() === entry.text.trim())),
    );
    if (!match) return undefined;
    const chatGuid = chatOf(match) ?? entry.chatGuid;
    await ledger.sent(attemptId, match.guid, chatGuid);
    return { externalId: match.guid, ...(chatGuid ? { chatId: chatGuid } : {}) };
  }

  // ---- operations through the Private API ----

  /** Edits a sent message (Private API, macOS 13+). */
  async edit(request: ProviderEditRequest): Promise<void> {
    this.#imessageOnly(request, 'edit');
    await this.#requirePrivateApi(request, 'editing', 13);
    try {
      await this.#api.edit(request.message.externalId, {
        editedMessage: request.text,
        backwardsCompatibilityMessage:
          request.backwardsCompatibilityMessage ?? `Edited to “${request.text}”`,
        partIndex: request.message.partIndex ?? 0,
      });
    } catch (error) {
      throw this.#changeError(error, request.channel, 'edit');
    }
  }

  /** Unsends a sent message (Private API, macOS 13+). */
  async unsend(request: ProviderUnsendRequest): Promise<void> {
    this.#imessageOnly(request, 'unsend');
    await this.#requirePrivateApi(request, 'unsending', 13);
    try {
      await this.#api.unsend(request.message.externalId, {
        partIndex: request.message.partIndex ?? 0,
      });
    } catch (error) {
      throw this.#changeError(error, request.channel, 'unsend');
    }
  }

  /** Adds or removes a tapback (Private API); emoji tapbacks need macOS 14+. */
  async react(request: ProviderReactRequest): Promise<void> {
    this.#imessageOnly(request, 'reactions');
    const emoji = request.reaction.type === 'emoji';
    await this.#requirePrivateApi(request, emoji ? 'emoji tapbacks' : 'tapbacks', emoji ? 14 : 0);
    const name = request.reaction.type === 'emoji' ? request.reaction.emoji : request.reaction.type;
    const chatGuid = await this.#chatOfMessage(request.channel, request.message);
    try {
      await this.#api.react({
        chatGuid,
        selectedMessageGuid: request.message.externalId,
        reaction: request.remove ? `-${name}` : name,
        partIndex: request.message.partIndex ?? 0,
      });
    } catch (error) {
      if (emoji && error instanceof BlueBubblesApiError && error.status === 400) {
        throw new ProviderError(
          'CHANNEL_NOT_SUPPORTED',
          'this BlueBubbles Server takes only the six classic tapbacks, not emoji tapbacks; update BlueBubbles Server',
          { channel: request.channel },
        );
      }
      throw this.#apiError(error, request.channel, 'react');
    }
  }

  /** Starts or stops the typing indicator (Private API). */
  async typing(request: ProviderTypingRequest): Promise<void> {
    this.#imessageOnly(request, 'typing');
    await this.#requirePrivateApi(request, 'typing indicators', 0);
    const chatGuid = await this.#chatFor(request.channel, request.to);
    if (chatGuid === undefined) {
      throw new ProviderError(
        'NOT_FOUND',
        `there is no chat with ${this.#addressOf(request.to)} yet`,
        {
          channel: request.channel,
        },
      );
    }
    await this.#api.typing(chatGuid, request.status === 'start').catch((error: unknown) => {
      throw this.#apiError(error, request.channel, 'typing');
    });
  }

  /** Marks a chat read (Private API). */
  async markRead(request: ProviderChatRequest): Promise<void> {
    this.#imessageOnly(request, 'mark read');
    await this.#requirePrivateApi(request, 'marking chats read', 0);
    await this.#api.markChat(request.chatId, true).catch((error: unknown) => {
      throw this.#apiError(error, request.channel, 'mark read');
    });
  }

  /** Marks a chat unread (Private API, macOS 13+). */
  async markUnread(request: ProviderChatRequest): Promise<void> {
    this.#imessageOnly(request, 'mark unread');
    await this.#requirePrivateApi(request, 'marking chats unread', 13);
    await this.#api.markChat(request.chatId, false).catch((error: unknown) => {
      throw this.#apiError(error, request.channel, 'mark unread');
    });
  }

  /**
   * Creates a group by sending its first message (iMessage has no empty groups): the given text,
   * else the group's name, else 👋. Needs the Private API (AppleScript only starts one-to-one chats).
   */
  async createGroup(request: ProviderCreateGroupRequest): Promise<ProviderChat> {
    this.#imessageOnly(request, 'groups');
    if (request.participants.length < 2) {
      throw new ProviderError(
        'VALIDATION_ERROR',
        'participants: an iMessage group needs at least two other members (with one, Messages makes the direct chat)',
        { channel: request.channel },
      );
    }
    await this.#requirePrivateApi(request, 'creating groups', 0);
    const chat = await this.#api
      .newChat({
        addresses: [...request.participants],
        message: request.text ?? request.name ?? '👋',
        service: 'iMessage',
        method: 'private-api',
      })
      .catch((error: unknown) => {
        throw this.#apiError(error, request.channel, 'create the group');
      });
    if (request.name !== undefined && request.name !== (chat.displayName ?? '')) {
      await this.#api.renameChat(chat.guid, request.name).catch((error: unknown) => {
        throw this.#apiError(error, request.channel, 'name the group');
      });
    }
    const view = chatView(chat);
    const name = request.name ?? view.name;
    return { ...view, ...(name ? { name } : {}) };
  }

  /** The chat as the Mac knows it. */
  async getChat(request: ProviderChatRequest): Promise<ProviderChat | null> {
    this.#imessageOnly(request, 'chats');
    const chat = await this.#api.chat(request.chatId).catch((error: unknown) => {
      throw this.#apiError(error, request.channel, 'look up the chat');
    });
    return chat ? chatView(chat) : null;
  }

  /** Renames a group (Private API). */
  async renameGroup(request: ProviderRenameGroupRequest): Promise<void> {
    this.#imessageOnly(request, 'groups');
    await this.#requirePrivateApi(request, 'renaming groups', 0);
    await this.#api.renameChat(request.chatId, request.name).catch((error: unknown) => {
      throw this.#apiError(error, request.channel, 'rename the group');
    });
  }

  /** Adds a member (Private API). */
  async addParticipant(request: ProviderParticipantRequest): Promise<ProviderParticipant> {
    this.#imessageOnly(request, 'groups');
    await this.#requirePrivateApi(request, 'adding members', 0);
    await this.#api
      .participant(request.chatId, request.participant, true)
      .catch((error: unknown) => {
        throw this.#apiError(error, request.channel, 'add the member');
      });
    return participantOf(request.participant);
  }

  /** Removes a member (Private API). */
  async removeParticipant(request: ProviderParticipantRequest): Promise<void> {
    this.#imessageOnly(request, 'groups');
    await this.#requirePrivateApi(request, 'removing members', 0);
    await this.#api
      .participant(request.chatId, request.participant, false)
      .catch((error: unknown) => {
        throw this.#apiError(error, request.channel, 'remove the member');
      });
  }

  /** Leaves a group (Private API). */
  async leaveGroup(request: ProviderChatRequest): Promise<void> {
    this.#imessageOnly(request, 'groups');
    await this.#requirePrivateApi(request, 'leaving groups', 0);
    await this.#api.leaveChat(request.chatId).catch((error: unknown) => {
      throw this.#apiError(error, request.channel, 'leave the group');
    });
  }

  /**
   * Whether an address has iMessage and FaceTime (Private API) and a Focus on; SMS reaches every
   * phone number when the instance serves it. Without the Private API iMessage is unknown and the
   * answer is not cached.
   */
  async checkAvailability(request: ProviderAvailabilityRequest): Promise<ProviderAvailability> {
    const checkedAt = this.#now();
    const address = request.address;
    const phone = E164.test(address);
    const channels: Partial<Record<Channel, boolean>> = {};
    if (this.channels.includes('sms')) channels.sms = phone;
    if (!this.channels.includes('imessage')) return { address, channels, checkedAt };
    if (!phone && !EMAIL.test(address)) {
      channels.imessage = false;
      return { address, channels, checkedAt };
    }
    if ((await this.#privateApiMissing().catch(() => 'unreachable')) !== undefined) {
      return { address, channels, checkedAt, transient: true };
    }
    try {
      const [imessage, facetime, focus] = await Promise.all([
        this.#api.availability('imessage', address),
        this.#api.availability('facetime', address).catch(() => undefined),
        this.#api.focus(address).catch(() => undefined),
      ]);
      channels.imessage = imessage;
      return {
        address,
        channels,
        checkedAt,
        ...(facetime === undefined ? {} : { facetime }),
        ...(focus === 'silenced'
          ? { focused: true }
          : focus === undefined
            ? {}
            : { focused: false }),
      };
    } catch {
      return { address, channels, checkedAt, transient: true };
    }
  }

  /**
   * Reads `/server/info`: degraded with the spec's warnings (Private API disabled, its helper not
   * connected, no iMessage or iCloud account), unhealthy when the Mac does not answer or refuses
   * the password. Also re-registers a lost webhook and reconciles.
   */
  async health(): Promise<ProviderHealth> {
    const checkedAt = this.#now();
    let info: BlueBubblesServerInfo;
    try {
      info = await this.#serverInfo(true);
    } catch (error) {
      const rejected = error instanceof BlueBubblesApiError && error.status === 401;
      return {
        status: 'unhealthy',
        warnings: [healthWarning(rejected ? 'credentials_rejected' : 'upstream_unreachable')],
        checkedAt,
      };
    }
    await this.#registerWebhook().catch(() => undefined);
    await this.#ledger?.prune().catch(() => undefined);
    this.#reconcileInBackground();
    const warnings: ProviderHealthWarning[] = [];
    if (!info.private_api) warnings.push(healthWarning('private_api_disabled'));
    else if (!info.helper_connected)
      warnings.push(healthWarning('private_api_helper_disconnected'));
    if (!info.detected_imessage) warnings.push(healthWarning('imessage_account_missing'));
    if (!info.detected_icloud) warnings.push(healthWarning('icloud_account_missing'));
    return { status: warnings.length === 0 ? 'healthy' : 'degraded', warnings, checkedAt };
  }

  /** The Mac's view of a sent message. */
  async fetchStatus(
    request: ProviderOperation & { message: ProviderMessageRef },
  ): Promise<ProviderStatusSnapshot | null> {
    this.#started(request, 'status lookups');
    const message = await this.#api.message(request.message.externalId).catch((error: unknown) => {
      throw this.#apiError(error, request.channel, 'look up the message');
    });
    if (!message) return null;
    if (message.error !== 0) return { status: 'failed', error: sendFailure(message.error) };
    if (message.dateRead) return { status: 'read' };
    if (message.dateDelivered) return { status: 'delivered' };
    return { status: 'sent' };
  }

  // ---- events ----

  /**
   * A BlueBubbles webhook (`{type, data}`, unsigned): a message event is confirmed by fetching the
   * message from the Mac (a forged call names a GUID the Mac does not know and is refused with
   * 404), then reported; typing, read state and FaceTime are reported as they come. Answers once
   * the gateway has recorded what it said.
   */
  async handleWebhook(request: ProviderWebhookRequest): Promise<ProviderWebhookResponse> {
    if (!this.#context) return { status: 503, body: 'The instance is not running' };
    if (request.method !== 'POST') return { status: 405, body: 'BlueBubbles webhooks are POSTs' };
    let body: { type?: unknown; data?: unknown };
    try {
      body = JSON.parse(Buffer.from(request.rawBody).toString('utf8')) as typeof body;
    } catch {
      return { status: 400, body: 'Not JSON' };
    }
    if (typeof body !== 'object' || body === null || typeof body.type !== 'string') {
      return { status: 400, body: 'Not a BlueBubbles event' };
    }
    try {
      const events = await this.#eventsOfWebhook(body.type, body.data);
      if (events === null) return { status: 404, body: 'The Mac does not know this message' };
      for (const event of events) await this.#deliver(event);
      return { status: 204 };
    } catch (error) {
      this.#context?.logger.warn(
        { err: error, type: body.type },
        'BlueBubbles webhook not handled',
      );
      return { status: 503, body: 'Not recorded; reconciliation will find it' };
    }
  }

  async #eventsOfWebhook(type: string, data: unknown): Promise<ProviderInboundEvent[] | null> {
    const now = new Date(this.#now());
    switch (type) {
      case 'new-message':
      case 'updated-message':
      case 'message-send-error':
      case 'group-name-change':
      case 'participant-added':
      case 'participant-removed':
      case 'participant-left': {
        const posted = data as Partial<BlueBubblesMessage> | undefined;
        if (typeof posted?.guid !== 'string') return [];
        const message = await this.#api.message(posted.guid);
        if (!message) return null;
        return this.#eventsOfMessage(
          { ...message, ...(posted.tempGuid ? { tempGuid: posted.tempGuid } : {}) },
          chatOf(message) ?? chatOf(posted as BlueBubblesMessage),
        );
      }
      case 'typing-indicator': {
        const typing = data as { display?: unknown; guid?: unknown };
        if (typeof typing.guid !== 'string' || isGroupChat(typing.guid)) return [];
        const from = typing.guid.split(';-;')[1];
        if (!from) return [];
        return [
          {
            kind: 'typing',
            channel: channelOfChat(typing.guid),
            occurredAt: now,
            from,
            to: await this.#instanceAddress(),
            status: typing.display === true ? 'start' : 'stop',
          },
        ];
      }
      case 'chat-read-status-changed': {
        const read = data as { chatGuid?: unknown; read?: unknown };
        if (typeof read.chatGuid !== 'string') return [];
        return [
          {
            kind: 'chat.read',
            channel: channelOfChat(read.chatGuid),
            occurredAt: now,
            chatId: read.chatGuid,
            to: await this.#instanceAddress(),
            read: read.read !== false,
          },
        ];
      }
      case 'incoming-facetime': {
        // A JSON string: '{"caller":"+1…","timestamp":…}'. Paired with the call's status event.
        const ring = JSON.parse(typeof data === 'string' ? data : '{}') as {
          caller?: unknown;
          timestamp?: unknown;
        };
        if (typeof ring.caller === 'string') {
          this.#rings.set(
            ring.caller,
            typeof ring.timestamp === 'number' ? ring.timestamp : this.#now(),
          );
        }
        return [];
      }
      case 'ft-call-status-changed':
        return this.#faceTimeEvents(data, now);
      default:
        return [];
    }
  }

  async #faceTimeEvents(data: unknown, now: Date): Promise<ProviderInboundEvent[]> {
    const call = data as {
      uuid?: unknown;
      status?: unknown;
      address?: unknown;
      handle?: { address?: unknown } | null;
      is_outgoing?: unknown;
      is_video?: unknown;
    };
    const status = faceTimeStatusOf(call.status);
    const address =
      typeof call.address === 'string'
        ? call.address
        : typeof call.handle?.address === 'string'
          ? call.handle.address
          : undefined;
    if (typeof call.uuid !== 'string' || !status || !address) return [];
    const to = await this.#instanceAddress();
    const isVideo = call.is_video === true;
    const events: ProviderInboundEvent[] = [];
    if (status === 'incoming' && call.is_outgoing !== true) {
      const rang = this.#rings.get(address);
      this.#rings.delete(address);
      events.push({
        kind: 'facetime.incoming',
        channel: 'imessage',
        occurredAt: rang === undefined ? now : new Date(rang),
        upstreamEventId: `${call.uuid}:ring`,
        callUuid: call.uuid,
        caller: address,
        to,
        isVideo,
      });
    }
    if (status === 'incoming') return events;
    events.push({
      kind: 'facetime.status',
      channel: 'imessage',
      occurredAt: now,
      upstreamEventId: `${call.uuid}:${status}`,
      callUuid: call.uuid,
      address,
      to,
      status,
      isOutgoing: call.is_outgoing === true,
      isVideo,
    });
    return events;
  }

  /** The events of one message, whatever told of it (a webhook, reconciliation). */
  async #eventsOfMessage(
    message: BlueBubblesMessage,
    chatGuid: string | undefined,
  ): Promise<ProviderInboundEvent[]> {
    const context: MappingContext = {
      address: await this.#instanceAddress(),
      now: new Date(this.#now()),
    };
    if (message.isFromMe) {
      if (message.itemType !== 0 || message.associatedMessageType) {
        // The Mac's own group changes and tapbacks: made through the gateway, already recorded.
        return [];
      }
      const attemptId = await this.#attemptOf(message, chatGuid);
      if (attemptId !== undefined) {
        return ownSendStatuses(message, chatGuid, context, attemptId);
      }
      return deviceSendEvent(message, chatGuid, context, await this.#attachmentsOf(message));
    }
    await this.#learnHandles(message, chatGuid);
    return contactEvents(message, chatGuid, context, await this.#attachmentsOf(message), (rowId) =>
      this.#handles.get(rowId),
    );
  }

  /** The attempt a message the Mac sent belongs to, when the gateway sent it. */
  async #attemptOf(
    message: BlueBubblesMessage,
    chatGuid: string | undefined,
  ): Promise<string | undefined> {
    const ledger = this.#ledger;
    if (!ledger) return undefined;
    const byGuid = await ledger.attemptOf(message.guid);
    if (byGuid !== undefined) return byGuid;
    const tempGuid = message.tempGuid;
    const byTemp =
      tempGuid === undefined ? undefined : await ledger.entry(tempGuid.replace(/:\d+$/, ''));
    const attemptId =
      byTemp && tempGuid !== undefined
        ? tempGuid.replace(/:\d+$/, '')
        : await ledger.pendingMatch(
            chatGuid,
            (message.text ?? '').replaceAll('\ufffc', '').trim(),
            message.dateCreated ?? this.#now(),
          );
    if (attemptId === undefined) return undefined;
    const entry = await ledger.entry(attemptId);
    // The first message of the attempt is the one it answers with; later parts keep their own GUIDs.
    if (entry?.guid === undefined) await ledger.sent(attemptId, message.guid, chatGuid);
    else await ledger.attach(attemptId, message.guid);
    return attemptId;
  }

  /** The bytes of a message's attachments, downloaded from the Mac (a LAN address is fine here). */
  async #attachmentsOf(message: BlueBubblesMessage): Promise<ProviderInboundAttachment[]> {
    const max = this.#options.maxAttachmentBytes ?? 100 * 1024 * 1024;
    const attachments: ProviderInboundAttachment[] = [];
    for (const attachment of message.attachments ?? []) {
      const mimeType = attachment.mimeType ?? 'application/octet-stream';
      const common = {
        providerId: attachment.guid,
        mimeType,
        ...(attachment.transferName ? { filename: attachment.transferName } : {}),
        ...(typeof attachment.totalBytes === 'number' ? { totalBytes: attachment.totalBytes } : {}),
      };
      try {
        const data = await this.#api.download(attachment.guid, max);
        attachments.push({ ...common, content: { kind: 'bytes', data } });
      } catch (error) {
        attachments.push({
          ...common,
          content: {
            kind: 'unavailable',
            reason: `the Mac did not give the file: ${error instanceof Error ? error.message : String(error)}`,
          },
        });
      }
    }
    return attachments;
  }

  /** Learns handle ROWIDs of a group's members (group changes name members by ROWID). */
  async #learnHandles(message: BlueBubblesMessage, chatGuid: string | undefined): Promise<void> {
    const rowId = message.otherHandle;
    if (message.itemType !== 1 || !rowId || this.#handles.has(rowId)) return;
    const handles = await this.#api.handles().catch(() => []);
    for (const handle of handles) this.#handles.set(handle.originalROWID, handle.address);
    if (!this.#handles.has(rowId) && chatGuid) {
      this.#context?.logger.warn(
        { rowId, chatGuid },
        'a group change names a handle the Mac does not list',
      );
    }
  }

  /**
   * Hands an event to the gateway once: an upstream id this process reported already (a send's
   * answer and its webhook, a duplicate webhook, reconciliation) is not offered again. Durable
   * de-duplication across restarts is the gateway's, by the same ids.
   */
  async #deliver(event: ProviderInboundEvent): Promise<void> {
    const delivery = this.#delivery;
    if (!delivery || !this.#context) return;
    const id = event.upstreamEventId;
    if (id === undefined) {
      await delivery.deliver(event);
      return;
    }
    if (this.#reported.has(id)) return;
    this.#reported.add(id);
    try {
      await delivery.deliver(event);
    } catch (error) {
      this.#reported.delete(id);
      throw error;
    }
    if (this.#reported.size > REPORTED_MEMORY) {
      const oldest = this.#reported.values().next().value;
      if (oldest !== undefined) this.#reported.delete(oldest);
    }
  }

  /**
   * Finds what webhooks may have missed: every message created since the stored cursor (less an
   * overlap), oldest first, reported like a webhook (repeats are dropped by their upstream ids).
   * The first run of a new instance looks back one minute, not over the Mac's whole history.
   */
  async reconcile(): Promise<number> {
    const context = this.#context;
    if (!context) return 0;
    const stored = await context.state.get('cursor');
    const startedAt = this.#now();
    let after =
      stored === undefined
        ? startedAt - FIRST_RECONCILE_WINDOW_MS
        : Number(stored) - RECONCILE_OVERLAP_MS;
    let newest = stored === undefined ? startedAt - FIRST_RECONCILE_WINDOW_MS : Number(stored);
    let seen = 0;
    for (let offset = 0; ; offset += RECONCILE_PAGE) {
      const page = await this.#api.queryMessages(after, offset, RECONCILE_PAGE);
      for (const message of page) {
        if (!this.#context) return seen;
        const events = await this.#eventsOfMessage(message, chatOf(message));
        for (const event of events) await this.#deliver(event);
        seen += 1;
        newest = Math.max(newest, message.dateCreated ?? 0);
      }
      if (page.length < RECONCILE_PAGE) break;
    }
    after = newest;
    await context.state.set('cursor', String(after));
    return seen;
  }

  #reconcileInBackground(): void {
    if (this.#reconciling || !this.#context) return;
    this.#reconciling = this.reconcile()
      .then(() => undefined)
      .catch((error: unknown) =>
        this.#context?.logger.warn(
          { err: error },
          'BlueBubbles reconciliation failed; retried at the next health check',
        ),
      )
      .finally(() => {
        this.#reconciling = undefined;
      });
  }

  // ---- helpers ----

  async #registerWebhook(): Promise<void> {
    const url = this.#context?.webhookUrl;
    if (url === undefined) return;
    const hooks = await this.#api.webhooks();
    if (hooks.some((hook) => hook.url === url)) return;
    await this.#api.addWebhook(url, ['*']);
  }

  async #serverInfo(fresh = false): Promise<BlueBubblesServerInfo> {
    const cached = this.#info;
    if (!fresh && cached && this.#now() - cached.at < INFO_TTL_MS) return cached.value;
    const value = await this.#api.serverInfo();
    this.#info = { value, at: this.#now() };
    return value;
  }

  /** The instance address: configured, else the iMessage account BlueBubbles detects. */
  async #instanceAddress(): Promise<string> {
    if (this.#address !== undefined) return this.#address;
    const detected = (await this.#serverInfo().catch(() => undefined))?.detected_imessage;
    if (detected) this.#address = detected;
    return detected || this.instanceName;
  }

  /** Why the Private API cannot be used now, or undefined when it can. */
  async #privateApiMissing(): Promise<string | undefined> {
    const info = await this.#serverInfo();
    if (!info.private_api) return 'the Private API is disabled in BlueBubbles Server';
    if (!info.helper_connected) return 'the Private API helper is not connected';
    return undefined;
  }

  async #privateApiReady(): Promise<boolean> {
    return (await this.#privateApiMissing().catch(() => 'unreachable')) === undefined;
  }

  /** `private-api` when configured, or on `auto` when the helper is connected; else `apple-script`. */
  async #method(): Promise<'private-api' | 'apple-script'> {
    const configured = this.#options.sendMethod;
    if (configured !== 'auto') return configured;
    return (await this.#privateApiReady()) ? 'private-api' : 'apple-script';
  }

  /** Refuses an operation the Private API (or this macOS) cannot do now, saying why. */
  async #requirePrivateApi(
    request: ProviderOperation,
    operation: string,
    minMacOs: number,
  ): Promise<void> {
    let info: BlueBubblesServerInfo;
    try {
      info = await this.#serverInfo();
    } catch (error) {
      throw this.#apiError(error, request.channel, operation);
    }
    const reason = await this.#privateApiMissing();
    if (reason !== undefined) {
      throw new ProviderError(
        'CHANNEL_NOT_SUPPORTED',
        `${operation} needs the BlueBubbles Private API: ${reason}`,
        {
          channel: request.channel,
        },
      );
    }
    const major = Number.parseInt(info.os_version.split('.')[0] ?? '0', 10) || 0;
    if (major < minMacOs) {
      throw new ProviderError(
        'CHANNEL_NOT_SUPPORTED',
        `${operation} needs macOS ${minMacOs} or newer; this Mac runs macOS ${info.os_version}`,
        { channel: request.channel },
      );
    }
  }

  async #chatOfMessage(channel: Channel, message: ProviderMessageRef): Promise<string> {
    const chatGuid = await this.#chatFor(channel, message.conversation);
    if (chatGuid !== undefined) return chatGuid;
    const found = await this.#api.message(message.externalId).catch(() => null);
    const guid = found ? chatOf(found) : undefined;
    if (guid === undefined) {
      throw new ProviderError('NOT_FOUND', `the Mac does not know message ${message.externalId}`, {
        channel,
      });
    }
    return guid;
  }

  /** The error of an edit or unsend the Mac could not make. */
  #changeError(error: unknown, channel: Channel, operation: 'edit' | 'unsend'): ProviderError {
    if (error instanceof BlueBubblesApiError && error.status === 0 && error.timedOut) {
      return new ProviderError('PROVIDER_TIMEOUT', error.message, { channel, cause: error });
    }
    if (error instanceof BlueBubblesApiError && error.status >= 500) {
      return new ProviderError(
        'EDIT_FAILED',
        `The Mac could not ${operation} the message: ${error.message}`,
        {
          channel,
          cause: error,
        },
      );
    }
    return this.#apiError(error, channel, operation);
  }

  /** The provider error of a failed API call. */
  #apiError(error: unknown, channel: Channel, operation: string): ProviderError {
    if (error instanceof ProviderError) return error;
    if (!(error instanceof BlueBubblesApiError)) {
      return new ProviderError('INTERNAL_ERROR', String(error), { channel, retryable: true });
    }
    if (error.status === 401) {
      return new ProviderError(
        'INTERNAL_ERROR',
        `BlueBubbles refused the instance's password (${operation})`,
        {
          channel,
          retryable: true,
          cause: error,
        },
      );
    }
    if (error.status === 404) {
      return new ProviderError('NOT_FOUND', `${operation}: ${error.message}`, {
        channel,
        cause: error,
      });
    }
    if (error.status === 400) {
      return new ProviderError('VALIDATION_ERROR', `${operation}: ${error.message}`, {
        channel,
        cause: error,
      });
    }
    if (error.status === 0 && error.timedOut) {
      return new ProviderError('PROVIDER_TIMEOUT', `${operation}: ${error.message}`, {
        channel,
        cause: error,
      });
    }
    return new ProviderError('INTERNAL_ERROR', `${operation}: ${error.message}`, {
      channel,
      retryable: true,
      cause: error,
    });
  }

  #imessageOnly(request: ProviderOperation, operation: string): void {
    this.#started(request, operation);
    if (request.channel !== 'imessage')
      throw ProviderError.channelNotSupported(request.channel, operation);
  }

  #started(request: ProviderOperation, operation: string) {
    const context = this.#context;
    const ledger = this.#ledger;
    if (!context || !ledger) {
      throw new ProviderError(
        'INTERNAL_ERROR',
        `BlueBubbles instance "${this.instanceName}" is not started`,
      );
    }
    if (!this.channels.includes(request.channel)) {
      throw ProviderError.channelNotSupported(request.channel, operation);
    }
    return { context, ledger };
  }
}

/** A send found to have happened after an uncertain answer: resolved, not thrown. */
class FoundSend {
  constructor(readonly result: ProviderSendResult) {}
}

/** A BlueBubbles chat as the port describes it. */
function chatView(chat: BlueBubblesChat): ProviderChat {
  return {
    chatId: chat.guid,
    channel: channelOfChat(chat.guid),
    isGroup: chat.style === 43 || isGroupChat(chat.guid),
    ...(chat.displayName ? { name: chat.displayName } : {}),
    participants: (chat.participants ?? []).map((handle) => participantOf(handle.address)),
  };
}

/** An iMessage member: the handle is the address. */
function participantOf(address: string): ProviderParticipant {
  return { handle: address, isPhoneResolved: true, admin: null };
}

/** Multipart fields are strings. */
function stringFields(fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)]));
}

/** A file name for a file that came without one. */
function fileNameOf(mimeType: string, index: number): string {
  const extension = mimeType.split('/')[1]?.split(/[+;]/)[0] ?? 'bin';
  return `attachment-${index + 1}.${extension}`;
}
