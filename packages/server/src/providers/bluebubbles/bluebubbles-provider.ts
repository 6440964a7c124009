import { type Channel, EMAIL_PATTERN, isE164 } from '@switchboard/contract';
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
import { changeErrorOf, providerErrorOf } from './bluebubbles-errors';
import {
  channelOfChat,
  chatOf,
  cleanText,
  EFFECT_IDS,
  isGroupChat,
  sendFailure,
} from './bluebubbles-events';
import { BlueBubblesInbound } from './bluebubbles-inbound';
import { MacStatus } from './bluebubbles-mac';
import { BlueBubblesSendLedger } from './bluebubbles-send-ledger';

/** The adapter name of BlueBubbles instances. */
export const BLUEBUBBLES_PROVIDER = 'bluebubbles';

/** The channels a BlueBubbles instance can serve: iMessage, and SMS through the Mac's iPhone. */
export const BLUEBUBBLES_CHANNELS: readonly Channel[] = ['imessage', 'sms'];

/** Messages found per reconciliation page. */
const RECONCILE_PAGE = 200;
/** How far back the first reconciliation of a new instance looks. */
const FIRST_RECONCILE_WINDOW_MS = 60_000;
/** Overlap of two reconciliations (BlueBubbles dates messages to the millisecond, clocks drift). */
const RECONCILE_OVERLAP_MS = 5_000;
/** Upstream ids remembered in memory to report each event once per process. */
const REPORTED_MEMORY = 10_000;

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
  readonly #mac: MacStatus;
  #inbound: BlueBubblesInbound | undefined;
  #reconciling: Promise<void> | undefined;

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
    this.#mac = new MacStatus(this.#api, this.#now, {
      sendMethod: options.sendMethod,
      instanceName: options.instanceName,
      ...(options.address === undefined ? {} : { address: options.address }),
    });
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
      rememberIds: REPORTED_MEMORY,
    });
    if (context.webhookUrl === undefined) {
      context.logger.warn(
        { instance: this.instanceName },
        'no public ingress URL: BlueBubbles cannot post events; set PUBLIC_BASE_URL (reconciliation still finds messages)',
      );
    }
    this.#inbound = new BlueBubblesInbound({
      api: this.#api,
      ledger: this.#ledger,
      mac: this.#mac,
      now: this.#now,
      maxAttachmentBytes: this.#options.maxAttachmentBytes ?? 100 * 1024 * 1024,
      logger: context.logger,
      reported: (upstreamId) => this.#delivery?.seen(upstreamId) ?? false,
    });
    try {
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
    this.#inbound = undefined;
  }

  // ---- sends ----

  /**
   * Sends one attempt. Text goes to `/message/text` (or `/chat/new` for a contact with no chat
   * yet), one file to `/message/attachment`, text with files to `/message/multipart` through the
   * Private API (one message), or as separate messages without it.
   */
  async send(request: ProviderSendRequest): Promise<ProviderSendResult> {
    const { ledger } = this.#started(request, 'send');
    if ((await ledger.entry(request.attemptId)) !== undefined) {
      // Begun before (a crash, an uncertain answer): what it became, if anything, answers.
      const found = await this.#findSent(request.attemptId).catch(() => undefined);
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
    const method = extras.privateApi ? 'private-api' : await this.#mac.sendMethod();
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
    if (await this.#mac.privateApiReady()) {
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
    const reason = await this.#mac.privateApiMissing();
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
    const ledger = this.#ledger;
    if (!ledger) return undefined;
    const address = to.address;
    if (!isE164(address) && !(channel === 'imessage' && EMAIL_PATTERN.test(address))) {
      throw ProviderError.unreachable(channel, address);
    }
    const remembered = await ledger.chatOf(channel, address);
    if (remembered !== undefined) return remembered;
    const service = channel === 'sms' ? 'SMS' : 'iMessage';
    for (const guid of [`${service};-;${address}`, `any;-;${address}`]) {
      const chat = await this.#api.chat(guid).catch((error: unknown) => {
        throw providerErrorOf(error, channel, 'look up the chat');
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
      const found = await this.#findSent(request.attemptId).catch(() => undefined);
      if (found) return new FoundSend(found);
      return new ProviderError(
        'PROVIDER_TIMEOUT',
        `${error.message}; the message may still arrive, so it is not sent again`,
        { channel: request.channel, cause: error, retryable: false, fallback: false },
      );
    }
    await ledger?.refused(request.attemptId);
    return providerErrorOf(error, request.channel, 'send');
  }

  /**
   * Whether an attempt became a message after all: its GUID from a webhook, or a message the Mac
   * sent into its chat since it started with the same text.
   */
  async #findSent(attemptId: string): Promise<ProviderSendResult | undefined> {
    const entry = await this.#ledger?.entry(attemptId);
    if (!this.#ledger || !entry) return undefined;
    if (entry.guid !== undefined) return resultOf(entry.guid, entry.chatGuid);
    const messages = await this.#api.queryMessages(entry.startedAt - 2_000, 0, RECONCILE_PAGE);
    const match = messages.find(
      (message) =>
        message.isFromMe &&
        (message.tempGuid === attemptId ||
          ((entry.chatGuid === undefined || chatOf(message) === entry.chatGuid) &&
            cleanText(message.text) === entry.text.trim())),
    );
    if (!match) return undefined;
    const chatGuid = chatOf(match) ?? entry.chatGuid;
    await this.#ledger.sent(attemptId, match.guid, chatGuid);
    return resultOf(match.guid, chatGuid);
  }

  // ---- operations through the Private API ----

  /** Edits a sent message (Private API, macOS 13+). */
  async edit(request: ProviderEditRequest): Promise<void> {
    this.#imessageOnly(request, 'edit');
    await this.#mac.require(request.channel, 'editing', 13);
    try {
      await this.#api.edit(request.message.externalId, {
        editedMessage: request.text,
        backwardsCompatibilityMessage:
          request.backwardsCompatibilityMessage ?? `Edited to “${request.text}”`,
        partIndex: request.message.partIndex ?? 0,
      });
    } catch (error) {
      throw changeErrorOf(error, request.channel, 'edit');
    }
  }

  /** Unsends a sent message (Private API, macOS 13+). */
  async unsend(request: ProviderUnsendRequest): Promise<void> {
    this.#imessageOnly(request, 'unsend');
    await this.#mac.require(request.channel, 'unsending', 13);
    try {
      await this.#api.unsend(request.message.externalId, {
        partIndex: request.message.partIndex ?? 0,
      });
    } catch (error) {
      throw changeErrorOf(error, request.channel, 'unsend');
    }
  }

  /** Adds or removes a tapback (Private API); emoji tapbacks need macOS 14+. */
  async react(request: ProviderReactRequest): Promise<void> {
    this.#imessageOnly(request, 'reactions');
    const emoji = request.reaction.type === 'emoji';
    await this.#mac.require(request.channel, emoji ? 'emoji tapbacks' : 'tapbacks', emoji ? 14 : 0);
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
      throw providerErrorOf(error, request.channel, 'react');
    }
  }

  /** Starts or stops the typing indicator (Private API). */
  async typing(request: ProviderTypingRequest): Promise<void> {
    this.#imessageOnly(request, 'typing');
    await this.#mac.require(request.channel, 'typing indicators', 0);
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
      throw providerErrorOf(error, request.channel, 'typing');
    });
  }

  /** Marks a chat read (Private API). */
  async markRead(request: ProviderChatRequest): Promise<void> {
    this.#imessageOnly(request, 'mark read');
    await this.#mac.require(request.channel, 'marking chats read', 0);
    await this.#api.markChat(request.chatId, true).catch((error: unknown) => {
      throw providerErrorOf(error, request.channel, 'mark read');
    });
  }

  /** Marks a chat unread (Private API, macOS 13+). */
  async markUnread(request: ProviderChatRequest): Promise<void> {
    this.#imessageOnly(request, 'mark unread');
    await this.#mac.require(request.channel, 'marking chats unread', 13);
    await this.#api.markChat(request.chatId, false).catch((error: unknown) => {
      throw providerErrorOf(error, request.channel, 'mark unread');
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
    await this.#mac.require(request.channel, 'creating groups', 0);
    const chat = await this.#api
      .newChat({
        addresses: [...request.participants],
        message: request.text ?? request.name ?? '👋',
        service: 'iMessage',
        method: 'private-api',
      })
      .catch((error: unknown) => {
        throw providerErrorOf(error, request.channel, 'create the group');
      });
    if (request.name !== undefined && request.name !== (chat.displayName ?? '')) {
      await this.#api.renameChat(chat.guid, request.name).catch((error: unknown) => {
        throw providerErrorOf(error, request.channel, 'name the group');
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
      throw providerErrorOf(error, request.channel, 'look up the chat');
    });
    return chat ? chatView(chat) : null;
  }

  /** Renames a group (Private API). */
  async renameGroup(request: ProviderRenameGroupRequest): Promise<void> {
    this.#imessageOnly(request, 'groups');
    await this.#mac.require(request.channel, 'renaming groups', 0);
    await this.#api.renameChat(request.chatId, request.name).catch((error: unknown) => {
      throw providerErrorOf(error, request.channel, 'rename the group');
    });
  }

  /** Adds a member (Private API). */
  async addParticipant(request: ProviderParticipantRequest): Promise<ProviderParticipant> {
    this.#imessageOnly(request, 'groups');
    await this.#mac.require(request.channel, 'adding members', 0);
    await this.#api
      .participant(request.chatId, request.participant, true)
      .catch((error: unknown) => {
        throw providerErrorOf(error, request.channel, 'add the member');
      });
    return participantOf(request.participant);
  }

  /** Removes a member (Private API). */
  async removeParticipant(request: ProviderParticipantRequest): Promise<void> {
    this.#imessageOnly(request, 'groups');
    await this.#mac.require(request.channel, 'removing members', 0);
    await this.#api
      .participant(request.chatId, request.participant, false)
      .catch((error: unknown) => {
        throw providerErrorOf(error, request.channel, 'remove the member');
      });
  }

  /** Leaves a group (Private API). */
  async leaveGroup(request: ProviderChatRequest): Promise<void> {
    this.#imessageOnly(request, 'groups');
    await this.#mac.require(request.channel, 'leaving groups', 0);
    await this.#api.leaveChat(request.chatId).catch((error: unknown) => {
      throw providerErrorOf(error, request.channel, 'leave the group');
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
    const phone = isE164(address);
    const channels: Partial<Record<Channel, boolean>> = {};
    if (this.channels.includes('sms')) channels.sms = phone;
    if (!this.channels.includes('imessage')) return { address, channels, checkedAt };
    if (!phone && !EMAIL_PATTERN.test(address)) {
      channels.imessage = false;
      return { address, channels, checkedAt };
    }
    if ((await this.#mac.privateApiMissing().catch(() => 'unreachable')) !== undefined) {
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
      info = await this.#mac.info(true);
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
      throw providerErrorOf(error, request.channel, 'look up the message');
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
    const inbound = this.#inbound;
    if (!this.#context || !inbound) return { status: 503, body: 'The instance is not running' };
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
      const events = await inbound.eventsOfWebhook(body.type, body.data);
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

  /** Hands an event to the gateway, unless the instance stopped (repeats are dropped by the queue). */
  async #deliver(event: ProviderInboundEvent): Promise<void> {
    if (!this.#context) return;
    await this.#delivery?.deliver(event);
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
    const cursor = stored === undefined ? this.#now() - FIRST_RECONCILE_WINDOW_MS : Number(stored);
    const after = stored === undefined ? cursor : cursor - RECONCILE_OVERLAP_MS;
    let newest = cursor;
    let seen = 0;
    for (let offset = 0; ; offset += RECONCILE_PAGE) {
      const page = await this.#api.queryMessages(after, offset, RECONCILE_PAGE);
      for (const message of page) {
        if (!this.#context) return seen;
        const events = (await this.#inbound?.eventsOfMessage(message, chatOf(message))) ?? [];
        for (const event of events) await this.#deliver(event);
        seen += 1;
        newest = Math.max(newest, message.dateCreated ?? 0);
      }
      if (page.length < RECONCILE_PAGE) break;
    }
    await context.state.set('cursor', String(newest));
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

/** A send's answer: its message GUID and chat. */
function resultOf(guid: string, chatGuid: string | undefined): ProviderSendResult {
  return { externalId: guid, ...(chatGuid ? { chatId: chatGuid } : {}) };
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
