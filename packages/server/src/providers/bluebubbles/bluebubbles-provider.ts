import { type Channel, EMAIL_PATTERN, isE164 } from '@switchboard/contract';
import {
  healthWarning,
  type MessagingProvider,
  OrderedEventDelivery,
  type ProviderAvailability,
  type ProviderAvailabilityRequest,
  type ProviderCapabilities,
  type ProviderDestination,
  ProviderError,
  type ProviderHealth,
  type ProviderHealthWarning,
  type ProviderInboundEvent,
  type ProviderMessageRef,
  type ProviderOperation,
  type ProviderSendRequest,
  type ProviderSendResult,
  type ProviderStartContext,
  type ProviderStatusSnapshot,
  type ProviderWebhookRequest,
  type ProviderWebhookResponse,
  SinkUnavailableError,
} from '@switchboard/provider-kit';
import { BlueBubblesApi, BlueBubblesApiError, type BlueBubblesServerInfo } from './bluebubbles-api';
import { providerErrorOf } from './bluebubbles-errors';
import { chatOf, sendFailure } from './bluebubbles-events';
import { BlueBubblesGroups } from './bluebubbles-groups';
import { BlueBubblesInbound } from './bluebubbles-inbound';
import { MacStatus } from './bluebubbles-mac';
import { BlueBubblesMessageActions } from './bluebubbles-message-actions';
import type { BlueBubblesOperationDeps } from './bluebubbles-operation-deps';
import { BlueBubblesOutbound } from './bluebubbles-outbound';
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

/** The channel the Mac's own operations work on. */
const IMESSAGE: readonly Channel[] = ['imessage'];

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
  /**
   * What the Mac does for iMessage (SMS has none of it): edits, unsend, tapbacks, typing, read
   * state, chats and groups. Most need the Private API: without it they refuse, saying why.
   */
  readonly capabilities: ProviderCapabilities = {
    edits: { channels: IMESSAGE, edit: (request) => this.#actions.edit(request) },
    unsend: { channels: IMESSAGE, unsend: (request) => this.#actions.unsend(request) },
    reactions: { channels: IMESSAGE, react: (request) => this.#actions.react(request) },
    typing: { channels: IMESSAGE, typing: (request) => this.#actions.typing(request) },
    readState: {
      channels: IMESSAGE,
      markRead: (request) => this.#actions.markRead(request),
      markUnread: (request) => this.#actions.markUnread(request),
    },
    chats: { channels: IMESSAGE, getChat: (request) => this.#groups.getChat(request) },
    groups: {
      channels: IMESSAGE,
      createGroup: (request) => this.#groups.createGroup(request),
      renameGroup: (request) => this.#groups.renameGroup(request),
      addParticipant: (request) => this.#groups.addParticipant(request),
      removeParticipant: (request) => this.#groups.removeParticipant(request),
      leaveGroup: (request) => this.#groups.leaveGroup(request),
    },
  };

  readonly #options: BlueBubblesProviderOptions;
  readonly #api: BlueBubblesApi;
  readonly #now: () => number;
  #context: ProviderStartContext | undefined;
  #ledger: BlueBubblesSendLedger | undefined;
  #delivery: OrderedEventDelivery | undefined;
  readonly #mac: MacStatus;
  readonly #actions: BlueBubblesMessageActions;
  readonly #groups: BlueBubblesGroups;
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
    const deps: BlueBubblesOperationDeps = {
      api: this.#api,
      mac: this.#mac,
      assertStarted: (request, operation) => {
        this.#started(request, operation);
      },
      chatFor: (channel, to) => this.#chatFor(channel, to),
    };
    this.#actions = new BlueBubblesMessageActions(deps);
    this.#groups = new BlueBubblesGroups(deps);
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
   * Sends one attempt (see {@link BlueBubblesOutbound}): text, files, effects and replies, each
   * written down first so a re-driven attempt is found rather than sent twice.
   */
  async send(request: ProviderSendRequest): Promise<ProviderSendResult> {
    const { ledger } = this.#started(request, 'send');
    return new BlueBubblesOutbound({
      api: this.#api,
      mac: this.#mac,
      ledger,
      now: this.#now,
      fetchMedia: this.#options.fetchMedia,
      deliver: (event) => this.#deliver(event),
      chatFor: (channel, to) => this.#chatFor(channel, to),
    }).send(request);
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
    const handles = [...(this.#inbound?.receivingHandles ?? [])];
    if (!this.#mac.addressConfigured && handles.length > 1) {
      // Without `address` every message is taken as sent to the detected account, whichever of
      // the Mac's addresses it reached: the operator has to say which one the customer has.
      warnings.push({
        code: 'receiving_addresses_several',
        message: `Inbound messages arrive for several addresses of the Mac (${handles.join(', ')}) and the instance has no \`address\`: set it to the customer's number`,
      });
    }
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

  /**
   * Registers the ingress URL with the Mac unless it is there, and removes the gateway's own
   * stale registrations (an old ingress token, a deleted instance): BlueBubbles keeps posting to
   * every URL it holds, so they would pile up, each one a call per event. Only URLs the gateway
   * says are its own and dead are removed; anyone else's webhooks are left alone.
   */
  async #registerWebhook(): Promise<void> {
    const context = this.#context;
    const url = context?.webhookUrl;
    if (url === undefined) return;
    const hooks = await this.#api.webhooks();
    const isStale = context?.isStaleIngressUrl;
    if (isStale) {
      for (const hook of hooks) {
        if (hook.url === url || !(await isStale(hook.url))) continue;
        await this.#api.deleteWebhook(hook.id);
        context.logger.info(
          { instance: this.instanceName, webhookId: hook.id },
          'removed a stale BlueBubbles webhook of this gateway (an old ingress token or a deleted instance)',
        );
      }
    }
    if (hooks.some((hook) => hook.url === url)) return;
    await this.#api.addWebhook(url, ['*']);
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
