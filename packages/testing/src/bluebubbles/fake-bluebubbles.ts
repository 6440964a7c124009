import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import { KNOWN_REACTION_TYPES } from '@switchboard/contract';
import { isSingleEmoji } from '@switchboard/provider-kit';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { registerAttachmentRoutes } from './fake-bluebubbles-attachment-routes';
import { registerChatRoutes } from './fake-bluebubbles-chat-routes';
import { registerHandleRoutes } from './fake-bluebubbles-handle-routes';
import {
  type Body,
  badRequest,
  FakeHttpError,
  type Multipart,
  notFound,
  ok,
  optionalString,
  type Query,
  requiredString,
  serverError,
} from './fake-bluebubbles-http';
import { registerMessageRoutes } from './fake-bluebubbles-message-routes';
import type { FakeBlueBubblesSwitches } from './fake-bluebubbles-model';
import {
  errorBody,
  type FakeBlueBubblesAttachment,
  type FakeBlueBubblesChat,
  type FakeBlueBubblesMessage,
  type FakePostedEventType,
  macOsMajor,
  messageGuid,
  newMessage,
  serializeAttachment,
  serializeChat,
  serializeHandle,
  UPSTREAM_SERVER_VERSION,
} from './fake-bluebubbles-model';
import type { FakeRoute, FakeRouteHost, FakeWebhook } from './fake-bluebubbles-routes';
import { registerServerRoutes } from './fake-bluebubbles-server-routes';
import { registerWebhookRoutes } from './fake-bluebubbles-webhook-routes';

export type { FakeBlueBubblesSwitches };

/**
 * The switches of a Mac set up as docs/providers/bluebubbles.md asks: the Private API enabled in
 * BlueBubbles' settings. Upstream's default is off (`enable_private_api`, bluebubbles-server@f2e2286
 * packages/server/src/server/databases/server/constants.ts:38), and so is the fake's.
 */
export const PRIVATE_API_ENABLED: Readonly<Partial<FakeBlueBubblesSwitches>> = { privateApi: true };

/** Fault injection: each counter goes down as it is used. */
export interface FakeBlueBubblesFaults {
  /** Every webhook is posted twice. */
  duplicateWebhooks?: boolean;
  /** A sent message's `updated-message` (delivered) is posted before its `new-message`. */
  outOfOrder?: boolean;
  /** The next N webhooks are never posted (only reconciliation can find what they said). */
  loseWebhooks?: number;
  /**
   * The next N sends are delivered (webhooks and all) but answer 500 only after `delayMs`, as
   * AppleScript sends do on some Macs after ~120 s (bluebubbles-server #801).
   */
  hangingSends?: { count: number; delayMs: number };
  /** The next N API calls answer 500 without doing anything. */
  serverErrors?: number;
  /**
   * Sends go out (`new-message`) but are never delivered: no `dateDelivered`, no `updated-message`,
   * no read, as when Apple quietly stops delivering for a flagged Apple ID.
   */
  undelivered?: boolean;
}

/** Settings of a fake BlueBubbles Server. */
export interface FakeBlueBubblesOptions {
  /** The server password (random by default). */
  password?: string;
  /** Loopback port (random by default). */
  port?: number;
  /** Milliseconds between the steps of a sent message: sent, delivered, read (default 20). */
  stepMs?: number;
  /** Initial switches. */
  switches?: Partial<FakeBlueBubblesSwitches>;
  /** The time source (epoch ms). */
  now?: () => number;
}

/** One call the fake made to a webhook, for tests. */
export interface FakeBlueBubblesWebhookCall {
  /** The event type. */
  type: string;
  /** What was posted as `data`. */
  data: unknown;
}

const PRIVATE_API_DISABLED = 'iMessage Private API is not enabled!';
const HELPER_DISCONNECTED = 'iMessage Private API Helper is not connected!';
/** Messages' error code of a recipient not registered with iMessage. */
const NOT_REGISTERED = 22;
const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A faithful local BlueBubbles Server for tests and manual trials (`pnpm fake:bluebubbles`): the
 * REST API under `/api/v1` with password query auth and BlueBubbles' `{status, message, data}`
 * envelope and error shapes, an in-memory Messages database (chats, handles, messages,
 * attachments), the send-method and `tempGuid` rules, Private API and macOS version gates,
 * webhooks posted in BlueBubbles' own shapes (unsigned, never retried), injectors that play
 * contacts, and fault switches. Control routes live under `/_fake/`.
 */
export class FakeBlueBubbles {
  /** The server password. */
  readonly password: string;
  /** Milliseconds between lifecycle steps. */
  stepMs: number;
  /** What the Mac reports and enforces. */
  readonly switches: FakeBlueBubblesSwitches;
  /** Fault switches. */
  faults: FakeBlueBubblesFaults = {};
  /** Addresses iMessage does not reach (sends to them fail with error 22; SMS works). */
  readonly notOnIMessage = new Set<string>();
  /** Addresses reachable by FaceTime (default: every iMessage address). */
  readonly noFaceTime = new Set<string>();
  /** Addresses with a Focus on (`/handle/:address/focus` answers `silenced`). */
  readonly focused = new Set<string>();
  /** Addresses whose messages never report `read` (read receipts off). */
  readonly noReadReceipts = new Set<string>();
  /** Every message, by GUID. */
  readonly messages = new Map<string, FakeBlueBubblesMessage>();
  /** Every chat, by GUID. */
  readonly chats = new Map<string, FakeBlueBubblesChat>();
  /** Every webhook call made, in order. */
  readonly webhookCalls: FakeBlueBubblesWebhookCall[] = [];
  /** API calls received, as `METHOD /path`, in order (for tests that count sends). */
  readonly calls: string[] = [];
  /** Typing indicators the API turned on, by chat GUID. */
  readonly typing = new Map<string, boolean>();
  /** Every route served, as `METHOD /path` (for the fidelity test). */
  readonly routes: string[] = [];

  readonly #port: number;
  readonly #now: () => number;
  readonly #webhooks: FakeWebhook[] = [];
  readonly #handles = new Map<string, number>();
  /** Addresses whose handle is an SMS one (`handle.service` `SMS`). */
  readonly #smsHandles = new Set<string>();
  readonly #chatRows = new Map<string, number>();
  readonly #uploads = new Map<string, { name: string; data: Uint8Array; mimeType: string }>();
  /** tempGuids of sends in progress: BlueBubbles' `sendCache`. */
  readonly #sendCache = new Set<string>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #pending = new Set<Promise<unknown>>();
  #rowId = 0;
  #webhookId = 0;
  #app: FastifyInstance | undefined;
  #baseUrl = '';

  /** A fake Mac; call `start` to serve it. */
  constructor(options: FakeBlueBubblesOptions = {}) {
    this.password = options.password ?? randomUUID();
    this.stepMs = options.stepMs ?? 20;
    this.#port = options.port ?? 0;
    this.#now = options.now ?? Date.now;
    this.switches = {
      privateApi: false,
      helperConnected: true,
      macOsVersion: '14.6.1',
      detectedIMessage: 'mac@icloud.com',
      detectedICloud: 'mac@icloud.com',
      anyGuids: false,
      emojiTapbacks: false,
      serverVersion: UPSTREAM_SERVER_VERSION,
      faceTimeCalling: false,
      ...options.switches,
    };
  }

  /** The server URL (`http://127.0.0.1:<port>`), as an operator configures it. */
  get baseUrl(): string {
    return this.#baseUrl;
  }

  /** Serves the fake on loopback; answers its base URL. */
  async start(): Promise<string> {
    const app = Fastify({ logger: false, bodyLimit: 100 * 1024 * 1024 });
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method !== 'HEAD') this.routes.push(`${method} ${route.url}`);
      }
    });
    await app.register(multipart, { limits: { fileSize: 100 * 1024 * 1024 } });
    app.setErrorHandler((error, _request, reply) => {
      if (error instanceof FakeHttpError) {
        return reply
          .status(error.status)
          .send(errorBody(error.status, error.message, error.error, error.data));
      }
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      return reply
        .status(status)
        .send(errorBody(status === 400 ? 400 : 500, 'Error', String(error)));
    });
    this.#routes(app);
    this.#controlRoutes(app);
    await app.listen({ port: this.#port, host: '127.0.0.1' });
    this.#app = app;
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    this.#baseUrl = `http://127.0.0.1:${port}`;
    return this.#baseUrl;
  }

  /** Cancels pending steps and closes the server. */
  async stop(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#pending]);
    const app = this.#app;
    this.#app = undefined;
    await app?.close();
  }

  /** Waits until every webhook posted so far was answered. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** The URLs registered through the webhook API. */
  webhookUrls(): string[] {
    return this.#webhooks.map((webhook) => webhook.url);
  }

  /** Messages the Mac sent, oldest first. */
  sent(): FakeBlueBubblesMessage[] {
    return [...this.messages.values()].filter((m) => m.isFromMe && m.itemType === 0);
  }

  // ---- injectors: what contacts and the Mac's own user do ----

  /**
   * A contact sends a message: stored and posted as `new-message`. Into `chatGuid` when given (a
   * group), else the direct iMessage chat with `from`.
   */
  inbound(input: {
    from: string;
    /** The Mac's own handle the contact wrote to (its chat's `lastAddressedHandle`). */
    to?: string;
    text?: string;
    chatGuid?: string;
    attachments?: { mimeType: string; name: string; data: Uint8Array; isSticker?: boolean }[];
    replyTo?: string;
    associatedMessageGuid?: string;
    associatedMessageType?: string;
    isAudioMessage?: boolean;
    /** The service of a direct chat: `SMS` for a text through the iPhone (default iMessage). */
    service?: 'iMessage' | 'SMS';
    /** The message GUID (random by default). */
    guid?: string;
    /** False to store the message without posting its webhook (a webhook built by hand). */
    post?: boolean;
  }): FakeBlueBubblesMessage {
    const service = input.service ?? 'iMessage';
    const chat = input.chatGuid
      ? this.#chat(input.chatGuid)
      : this.#ensureChat(this.#directGuid(service, input.from), [input.from]);
    this.#handleRow(input.from);
    if (input.to !== undefined) chat.lastAddressedHandle = input.to;
    if (service === 'SMS') this.#smsHandles.add(input.from);
    const message = this.#insert({
      chatGuid: chat.guid,
      isFromMe: false,
      handle: input.from,
      text: input.text ?? (input.attachments?.length ? '\ufffc' : ''),
      attachments: (input.attachments ?? []).map((file) => ({
        guid: `at_${messageGuid()}`,
        mimeType: file.mimeType,
        transferName: file.name,
        data: file.data,
        isOutgoing: false,
        isSticker: file.isSticker ?? false,
      })),
      threadOriginatorGuid: input.replyTo ?? null,
      threadOriginatorPart: input.replyTo ? '0:0:0' : null,
      associatedMessageGuid: input.associatedMessageGuid ?? null,
      associatedMessageType: input.associatedMessageType ?? null,
      isAudioMessage: input.isAudioMessage ?? false,
      ...(input.guid ? { guid: input.guid } : {}),
    });
    chat.read = false;
    if (input.post !== false) this.#post('new-message', this.#serialize(message, true));
    return message;
  }

  /** A chat that exists on the Mac already (a group the Mac is in, a contact it talked to). */
  addChat(guid: string, participants: string[], displayName = ''): FakeBlueBubblesChat {
    const chat = this.#ensureChat(guid, participants);
    chat.displayName = displayName;
    return chat;
  }

  /**
   * A message as BlueBubbles posts it in a webhook of `type` (for tests that build calls by hand):
   * `updated-message` payloads carry no `chats`.
   */
  webhookBody(type: string, guid: string, extra: Record<string, unknown> = {}): string {
    const message = this.#message(guid);
    return JSON.stringify({
      type,
      data: { ...this.#serialize(message, type !== 'updated-message'), ...extra },
    });
  }

  /** Marks a sent message delivered now (without posting anything). */
  markDelivered(guid: string): void {
    const message = this.#message(guid);
    message.dateDelivered = this.#now();
    message.dateUpdated = message.dateDelivered;
  }

  /**
   * A contact reacts to a message with a tapback (`love`, `-love` to take it back, `sticker`, or
   * BlueBubbles' numeric string for newer kinds such as an emoji tapback, `2006`, with the emoji in
   * the text). The target is written in BlueBubbles' raw `p:<part>/<guid>` form.
   */
  tapback(input: {
    from: string;
    target: string;
    reaction: string;
    text?: string;
    chatGuid?: string;
  }): FakeBlueBubblesMessage {
    const target = this.#message(input.target);
    return this.inbound({
      from: input.from,
      chatGuid: input.chatGuid ?? target.chatGuid,
      text: input.text ?? `${input.reaction} “${target.text ?? ''}”`,
      associatedMessageGuid: `p:0/${target.guid}`,
      associatedMessageType: input.reaction,
    });
  }

  /** The Mac's own user types a message on the Mac (not through the API): `isFromMe`, no `tempGuid`. */
  deviceSend(input: { to: string; text: string }): FakeBlueBubblesMessage {
    const chat = this.#ensureChat(`iMessage;-;${input.to}`, [input.to]);
    const message = this.#insert({
      chatGuid: chat.guid,
      isFromMe: true,
      handle: input.to,
      text: input.text,
    });
    this.#post('new-message', this.#serialize(message, true));
    return message;
  }

  /** A contact edits (text) or unsends (null) one of their messages: `updated-message`. */
  contactChanges(guid: string, text: string | null): void {
    const message = this.#message(guid);
    const now = this.#now();
    if (text === null) {
      message.dateRetracted = now;
      message.text = '';
    } else {
      message.dateEdited = now;
      message.text = text;
    }
    message.dateUpdated = now;
    this.#post('updated-message', this.#serialize(message, false));
  }

  /** A contact starts or stops typing in a direct chat: `typing-indicator`. */
  contactTyping(from: string, display: boolean): void {
    const chat = this.#ensureChat(`iMessage;-;${from}`, [from]);
    this.#post('typing-indicator', { display, guid: chat.guid });
  }

  /**
   * A member changes a group: renames it (`title`), adds or removes someone, leaves, or changes or
   * removes the group photo. Posted as BlueBubbles does (MessagePoller.ts:101-130): a message with
   * `itemType`/`groupActionType`, the member as a handle ROWID, under its own event type and then,
   * being a new row like any other, as `new-message` too.
   */
  groupChange(input: {
    chatGuid: string;
    actor: string;
    action: 'rename' | 'add' | 'remove' | 'leave' | 'photo' | 'photo-removed';
    title?: string;
    participant?: string;
  }): FakeBlueBubblesMessage {
    const chat = this.#chat(input.chatGuid);
    const participant = input.participant ?? input.actor;
    const shapes: Record<
      typeof input.action,
      { itemType: number; groupActionType: number; type: FakePostedEventType }
    > = {
      rename: { itemType: 2, groupActionType: 0, type: 'group-name-change' },
      add: { itemType: 1, groupActionType: 0, type: 'participant-added' },
      remove: { itemType: 1, groupActionType: 1, type: 'participant-removed' },
      leave: { itemType: 3, groupActionType: 0, type: 'participant-left' },
      photo: { itemType: 3, groupActionType: 1, type: 'group-icon-changed' },
      'photo-removed': { itemType: 3, groupActionType: 2, type: 'group-icon-removed' },
    };
    const shape = shapes[input.action];
    if (input.action === 'rename') chat.displayName = input.title ?? '';
    if (input.action === 'add' && !chat.participants.includes(participant)) {
      chat.participants.push(participant);
    }
    if (input.action === 'remove' || input.action === 'leave') {
      chat.participants = chat.participants.filter((a) => a !== participant);
    }
    const message = this.#insert({
      chatGuid: chat.guid,
      isFromMe: false,
      handle: input.actor,
      itemType: shape.itemType,
      groupActionType: shape.groupActionType,
      groupTitle: input.action === 'rename' ? (input.title ?? '') : null,
      otherHandle:
        input.action === 'add' || input.action === 'remove' ? this.#handleRow(participant) : 0,
    });
    this.#post(shape.type, this.#serialize(message, true));
    this.#post('new-message', this.#serialize(message, true));
    return message;
  }

  /**
   * A contact keeps a voice memo the Mac sent (Messages writes an `item_type` 5 row, "kept an audio
   * message"). BlueBubbles has no event of its own for it: the row is posted as `new-message`.
   */
  audioKept(input: { from: string; target: string }): FakeBlueBubblesMessage {
    const target = this.#message(input.target);
    const message = this.#insert({
      chatGuid: target.chatGuid,
      isFromMe: false,
      handle: input.from,
      itemType: 5,
    });
    this.#post('new-message', this.#serialize(message, true));
    return message;
  }

  /** The Mac's user marks a chat read: `chat-read-status-changed`. */
  chatReadOnMac(chatGuid: string): void {
    this.#chat(chatGuid).read = true;
    this.#post('chat-read-status-changed', { chatGuid, read: true });
  }

  /**
   * A FaceTime call rings on the Mac, then goes through `statuses` (default `incoming`,
   * `disconnected`). As PrivateApiFaceTimeStatusHandler.ts does: with FaceTime Calling off (the
   * default) only the ring is posted, as `incoming-facetime` whose `data` is a JSON string
   * `{caller, timestamp}`; with it on, only `ft-call-status-changed`, for `incoming` and
   * `disconnected` (never `answered` nor `outgoing`). Answers the call's UUID.
   */
  faceTime(input: { caller: string; isVideo?: boolean; statuses?: string[] }): string {
    const uuid = randomUUID().toUpperCase();
    const now = this.#now();
    const statuses = input.statuses ?? ['incoming', 'disconnected'];
    if (!this.switches.faceTimeCalling) {
      if (statuses.includes('incoming')) {
        this.#post('incoming-facetime', JSON.stringify({ caller: input.caller, timestamp: now }));
      }
      return uuid;
    }
    const statusIds: Record<string, number> = {
      unknown: 0,
      answered: 1,
      outgoing: 3,
      incoming: 4,
      disconnected: 6,
    };
    for (const status of statuses) {
      if (status === 'answered' || status === 'outgoing') continue;
      this.#post('ft-call-status-changed', {
        uuid,
        status,
        status_id: statusIds[status] ?? 0,
        ended_error: null,
        ended_reason: null,
        address: input.caller,
        handle: serializeHandle(input.caller, this.#handleRow(input.caller)),
        image_url: null,
        is_outgoing: false,
        is_audio: !(input.isVideo ?? true),
        is_video: input.isVideo ?? true,
        url: null,
      });
    }
    return uuid;
  }

  /**
   * BlueBubbles restarted and replays a week of messages as `new-message`: every message created
   * in the last seven days, again.
   */
  replayWeek(): number {
    const since = this.#now() - SEVEN_DAYS_MS;
    const replayed = [...this.messages.values()].filter((m) => m.dateCreated >= since);
    for (const message of replayed) this.#post('new-message', this.#serialize(message, true));
    return replayed.length;
  }

  // ---- the REST API ----

  /** Serves the REST API under `/api/v1`, one module per resource as BlueBubbles Server's router groups them. */
  #routes(app: FastifyInstance): void {
    const api = '/api/v1';
    const route: FakeRoute = (method, path, handler) => {
      app.route({
        method,
        url: `${api}${path}`,
        handler: async (request, reply) => {
          this.#authenticate(request.query as Query);
          this.calls.push(`${method} ${path}`);
          if ((this.faults.serverErrors ?? 0) > 0) {
            this.faults.serverErrors = (this.faults.serverErrors ?? 0) - 1;
            throw new FakeHttpError(500, 'The server has encountered an error', 'Server Error');
          }
          return handler(request, reply);
        },
      });
    };
    const host = this.#routeHost();
    registerServerRoutes(route, host);
    registerMessageRoutes(route, host);
    registerAttachmentRoutes(route, host);
    registerChatRoutes(route, host);
    registerHandleRoutes(route, host);
    registerWebhookRoutes(route, host);
  }

  /** What the resource route modules may see and do of this fake. */
  #routeHost(): FakeRouteHost {
    return {
      switches: this.switches,
      messages: this.messages,
      chats: this.chats,
      typing: this.typing,
      notOnIMessage: this.notOnIMessage,
      noFaceTime: this.noFaceTime,
      focused: this.focused,
      handles: this.#handles,
      uploads: this.#uploads,
      webhooks: this.#webhooks,
      nextWebhookId: () => {
        this.#webhookId += 1;
        return this.#webhookId;
      },
      now: () => this.#now(),
      sendText: (body, reply) => this.#sendText(body, reply),
      sendAttachment: (input, reply) => this.#sendAttachment(input, reply),
      sendMultipart: (body, reply) => this.#sendMultipart(body, reply),
      react: (body) => this.#react(body),
      edit: (guid, body) => this.#edit(guid, body),
      unsend: (guid, body) => this.#unsend(guid, body),
      query: (body) => this.#query(body),
      newChat: (body) => this.#newChat(body),
      participant: (guid, body, add) => this.#participant(guid, body, add),
      ownGroupAction: (chat, fields, type) => this.#ownGroupAction(chat, fields, type),
      privateApiMiddleware: () => this.#privateApiMiddleware(),
      requirePrivateApi: (action) => this.#requirePrivateApi(action),
      chat: (guid) => this.#chat(guid),
      groupChat: (guid) => this.#groupChat(guid),
      serialize: (message, withChats) => this.#serialize(message, withChats),
      serializeChat: (chat, withParticipants) => this.#serializeChat(chat, withParticipants),
      post: (type, data) => this.#post(type, data),
    };
  }

  /** Routes that drive the fake by hand (`pnpm fake:bluebubbles`); no password. */
  #controlRoutes(app: FastifyInstance): void {
    app.post('/_fake/inbound', async (request) => {
      const body = request.body as { from: string; text?: string; chatGuid?: string };
      return this.#serialize(this.inbound(body), true);
    });
    app.post('/_fake/tapback', async (request) =>
      this.#serialize(
        this.tapback(request.body as { from: string; target: string; reaction: string }),
        true,
      ),
    );
    app.post('/_fake/typing', async (request) => {
      const body = request.body as { from: string; display: boolean };
      this.contactTyping(body.from, body.display);
      return { ok: true };
    });
    app.post('/_fake/facetime', async (request) => ({
      uuid: this.faceTime(request.body as { caller: string; isVideo?: boolean }),
    }));
    app.put('/_fake/switches', async (request) => {
      Object.assign(this.switches, request.body as Partial<FakeBlueBubblesSwitches>);
      return this.switches;
    });
    app.put('/_fake/faults', async (request) => {
      this.faults = request.body as FakeBlueBubblesFaults;
      return this.faults;
    });
    app.post('/_fake/replay', async () => ({ replayed: this.replayWeek() }));
    app.get('/_fake/messages', async () =>
      [...this.messages.values()].map((m) => this.#serialize(m, true)),
    );
  }

  // ---- operations ----

  async #sendText(body: Body, reply: FastifyReply): Promise<unknown> {
    const chatGuid = requiredString(body, 'chatGuid');
    const message = optionalString(body, 'message');
    const tempGuid = optionalString(body, 'tempGuid');
    const method = this.#method(body);
    if (method === 'apple-script' && !tempGuid) {
      throw badRequest(`A 'tempGuid' is required when sending via AppleScript`);
    }
    if (method === 'apple-script' && !message) {
      throw badRequest(`A 'message' is required when sending via AppleScript`);
    }
    if (method === 'private-api' && !message && !optionalString(body, 'subject')) {
      throw badRequest(`A 'message' or 'subject' is required when sending via the Private API`);
    }
    this.#checkQueue(tempGuid, `Message is already queued to be sent! (Temp GUID: ${tempGuid})`);
    if (method === 'private-api') this.#requirePrivateApi('Failed to send message');
    // A send stops the typing the API started in its chat (messageInterface.ts:83-92).
    this.typing.delete(chatGuid);
    return this.#deliver(reply, tempGuid, 'Message sent!', () =>
      this.#outgoing(chatGuid, {
        text: message ?? '',
        subject: optionalString(body, 'subject') ?? null,
        expressiveSendStyleId: optionalString(body, 'effectId') ?? null,
        threadOriginatorGuid: optionalString(body, 'selectedMessageGuid') ?? null,
        threadOriginatorPart: optionalString(body, 'selectedMessageGuid')
          ? `${Number(body.partIndex ?? 0)}:0:0`
          : null,
      }),
    );
  }

  async #sendAttachment(input: Multipart, reply: FastifyReply): Promise<unknown> {
    const { fields, files } = input;
    const chatGuid = requiredString(fields, 'chatGuid');
    const name = requiredString(fields, 'name');
    const tempGuid = fields.tempGuid;
    const method = this.#method(fields);
    if (method === 'apple-script' && !tempGuid) {
      throw badRequest(`A 'tempGuid' is required when sending via AppleScript`);
    }
    this.#checkQueue(tempGuid, 'Attachment is already queued to be sent!');
    const file = files.attachment;
    if (!file || file.data.byteLength === 0) {
      throw badRequest('Attachment not provided or was empty!');
    }
    if (method === 'private-api') this.#requirePrivateApi('Failed to send attachment');
    // `isAudioMessage` reaches Messages only through the Private API (PrivateApiAttachment.ts:39);
    // AppleScript sends a plain file (actions.ts:42-54), an MP3 converted to CAF either way.
    const audio = fields.isAudioMessage === 'true';
    const sentName = audio && name.endsWith('.mp3') ? `${name.slice(0, -4)}.caf` : name;
    return this.#deliver(reply, tempGuid, 'Attachment sent!', () =>
      this.#outgoing(chatGuid, {
        text: '\ufffc',
        isAudioMessage: audio && method === 'private-api',
        expressiveSendStyleId: fields.effectId ?? null,
        threadOriginatorGuid: fields.selectedMessageGuid ?? null,
        attachments: [
          {
            guid: `at_${messageGuid()}`,
            mimeType: file.mimeType,
            transferName: sentName,
            data: file.data,
            isOutgoing: true,
            isSticker: false,
          },
        ],
      }),
    );
  }

  async #sendMultipart(body: Body, reply: FastifyReply): Promise<unknown> {
    const chatGuid = requiredString(body, 'chatGuid');
    const tempGuid = optionalString(body, 'tempGuid');
    const parts = body.parts;
    if (!Array.isArray(parts) || parts.length === 0)
      throw badRequest('The parts field is required');
    const attachments: FakeBlueBubblesAttachment[] = [];
    const texts: string[] = [];
    for (const part of parts as Body[]) {
      if (typeof part !== 'object' || part === null) {
        throw badRequest('Each part must be a dictionary');
      }
      if (typeof part.partIndex !== 'number') throw badRequest('Each partIndex must be a number');
      if (!part.text && !part.attachment) {
        throw badRequest('Each part must have either a text or attachment');
      }
      if (part.attachment && !part.name) throw badRequest('Each attachment must have a name');
      if (typeof part.attachment === 'string') {
        const upload = this.#uploads.get(part.attachment);
        if (!upload) throw badRequest(`Attachment '${part.attachment}' does not exist`);
        attachments.push({
          guid: `at_${messageGuid()}`,
          mimeType: upload.mimeType,
          transferName: String(part.name),
          data: upload.data,
          isOutgoing: true,
          isSticker: false,
        });
      } else {
        texts.push(String(part.text));
      }
    }
    this.#checkQueue(tempGuid, 'Message is already queued to be sent!');
    this.#requirePrivateApi('Failed to send multipart message');
    return this.#deliver(reply, tempGuid, 'Message sent!', () =>
      this.#outgoing(chatGuid, {
        text: texts.join(' '),
        attachments,
        partCount: parts.length,
        expressiveSendStyleId: optionalString(body, 'effectId') ?? null,
        threadOriginatorGuid: optionalString(body, 'selectedMessageGuid') ?? null,
      }),
    );
  }

  /**
   * Runs a send with `tempGuid` held in the send cache: answers the message with `tempGuid`, or
   * 500 with it when it failed; a hanging-send fault answers 500 late although it was delivered.
   */
  async #deliver(
    reply: FastifyReply,
    tempGuid: string | undefined,
    success: string,
    send: () => FakeBlueBubblesMessage,
  ): Promise<unknown> {
    if (tempGuid) this.#sendCache.add(tempGuid);
    try {
      const message = send();
      const data = { ...this.#serialize(message, true), ...(tempGuid ? { tempGuid } : {}) };
      this.#lifecycle(message, tempGuid);
      const hang = this.faults.hangingSends;
      if (hang && hang.count > 0) {
        hang.count -= 1;
        await new Promise((resolve) => this.#later(hang.delayMs, () => resolve(undefined)));
        throw new FakeHttpError(
          500,
          'Message Send Error',
          'Failed to send message! Message not found in database after 120 seconds!',
        );
      }
      if (message.error !== 0) {
        throw new FakeHttpError(500, 'Message Send Error', 'Message failed to send!', data);
      }
      return reply.send({ status: 200, message: success, data });
    } finally {
      if (tempGuid) this.#sendCache.delete(tempGuid);
    }
  }

  /** A message the Mac sends into `chatGuid`; failed (error 22) when iMessage cannot reach it. */
  #outgoing(chatGuid: string, fields: Partial<FakeBlueBubblesMessage>): FakeBlueBubblesMessage {
    const chat = this.chats.get(chatGuid);
    if (!chat?.joined) {
      throw new FakeHttpError(
        500,
        'Message Send Error',
        `Failed to send message! Chat not found (${chatGuid})`,
      );
    }
    const sms =
      chat.guid.startsWith('SMS;') ||
      (chat.guid.startsWith('any;-;') && this.#serviceOf(chat.participants[0] ?? '') === 'SMS');
    const unreachable = !sms && chat.participants.some((a) => this.notOnIMessage.has(a));
    const direct = chat.style === 45 ? (chat.participants[0] ?? null) : null;
    return this.#insert({
      chatGuid: chat.guid,
      isFromMe: true,
      handle: direct,
      error: unreachable ? NOT_REGISTERED : 0,
      ...fields,
    });
  }

  /** Posts what follows a send: `new-message`, then delivered and read (or `message-send-error`). */
  #lifecycle(message: FakeBlueBubblesMessage, tempGuid: string | undefined): void {
    const withTemp = (data: Record<string, unknown>) => (tempGuid ? { ...data, tempGuid } : data);
    if (message.error !== 0) {
      this.#later(this.stepMs, () =>
        this.#post('message-send-error', withTemp(this.#serialize(message, true))),
      );
      return;
    }
    const delivered = () => {
      message.dateDelivered = this.#now();
      message.dateUpdated = message.dateDelivered;
      this.#post('updated-message', this.#serialize(message, false));
    };
    const created = () => this.#post('new-message', withTemp(this.#serialize(message, true)));
    if (this.faults.undelivered) {
      this.#later(this.stepMs, created);
      return;
    }
    const [first, second] = this.faults.outOfOrder ? [delivered, created] : [created, delivered];
    this.#later(this.stepMs, first);
    this.#later(this.stepMs * 2, second);
    const chat = this.chats.get(message.chatGuid);
    const readable = chat?.style === 45 && !this.noReadReceipts.has(chat.participants[0] ?? '');
    if (readable) {
      this.#later(this.stepMs * 3, () => {
        message.dateRead = this.#now();
        message.dateUpdated = message.dateRead;
        this.#post('updated-message', this.#serialize(message, false));
      });
    }
  }

  #react(body: Body): unknown {
    const chatGuid = requiredString(body, 'chatGuid');
    const selected = requiredString(body, 'selectedMessageGuid');
    const reaction = requiredString(body, 'reaction');
    const emoji =
      this.switches.emojiTapbacks &&
      macOsMajor(this.switches.macOsVersion) >= 14 &&
      isSingleEmoji(reaction.replace(/^-/, ''));
    // validatorjs' `in:` rule over MessageInterface.possibleReactions (messageValidator.ts:167-171).
    if (!(KNOWN_REACTION_TYPES as readonly string[]).includes(reaction) && !emoji) {
      throw badRequest('The selected reaction is invalid.');
    }
    this.#chat(chatGuid);
    const target = this.messages.get(selected);
    // messageRouter.ts:492-493.
    if (!target) throw badRequest('Selected message does not exist!');
    const message = this.#insert({
      chatGuid,
      isFromMe: true,
      handle: null,
      text: `${reaction} “${target.text ?? ''}”`,
      associatedMessageGuid: `p:${Number(body.partIndex ?? 0)}/${target.guid}`,
      associatedMessageType: emoji ? (reaction.startsWith('-') ? '3006' : '2006') : reaction,
    });
    return ok('Reaction sent!', this.#serialize(message, true));
  }

  #edit(guid: string, body: Body): unknown {
    const editedMessage = requiredString(body, 'editedMessage');
    requiredString(body, 'backwardsCompatibilityMessage');
    this.#requirePrivateApi('Failed to edit message');
    if (macOsMajor(this.switches.macOsVersion) < 13) {
      throw new FakeHttpError(
        500,
        'Message Edit Error',
        // Upstream's edit says "Unsend" here (messageInterface.ts:355-356): reproduced.
        'Unsend message is only supported on macOS Ventura and newer!',
      );
    }
    const message = this.messages.get(guid);
    if (!message?.isFromMe || message.dateRetracted !== null) {
      throw new FakeHttpError(
        500,
        'Failed to edit message',
        'Failed to edit message! Message not edited after 30 seconds!',
      );
    }
    message.text = editedMessage;
    message.dateEdited = this.#now();
    message.dateUpdated = message.dateEdited;
    this.#post('updated-message', this.#serialize(message, false));
    return ok('Message edited!', this.#serialize(message, true));
  }

  #unsend(guid: string, _body: Body): unknown {
    this.#requirePrivateApi('Failed to unsend message');
    if (macOsMajor(this.switches.macOsVersion) < 13) {
      throw new FakeHttpError(
        500,
        'Unsend Message Error',
        'Unsend message is only supported on macOS Ventura and newer!',
      );
    }
    const message = this.messages.get(guid);
    if (!message?.isFromMe) {
      throw new FakeHttpError(
        500,
        'Failed to unsend message',
        'Failed to unsend message! Message not edited (unsent) after 30 seconds!',
      );
    }
    message.text = '';
    message.dateRetracted = this.#now();
    message.dateUpdated = message.dateRetracted;
    this.#post('updated-message', this.#serialize(message, false));
    return ok('Message unsent!', this.#serialize(message, true));
  }

  #query(body: Body): unknown {
    const after = typeof body.after === 'number' ? body.after : undefined;
    const before = typeof body.before === 'number' ? body.before : undefined;
    const limit = Math.min(typeof body.limit === 'number' ? body.limit : 100, 1000);
    if (limit < 1) throw badRequest('The limit must be at least 1.');
    const offset = typeof body.offset === 'number' ? body.offset : 0;
    const sort = body.sort === 'ASC' ? 'ASC' : 'DESC';
    const chatGuid = optionalString(body, 'chatGuid');
    const withChats = Array.isArray(body.with) && body.with.some((w) => /^chats?$/.test(String(w)));
    let rows = [...this.messages.values()].filter(
      (m) =>
        (after === undefined || m.dateCreated >= after) &&
        (before === undefined || m.dateCreated <= before) &&
        (chatGuid === undefined || m.chatGuid === chatGuid),
    );
    rows.sort((a, b) => (sort === 'ASC' ? a.ROWID - b.ROWID : b.ROWID - a.ROWID));
    const total = rows.length;
    rows = rows.slice(offset, offset + limit);
    return {
      status: 200,
      message: 'Successfully fetched messages!',
      data: rows.map((m) => this.#serialize(m, withChats)),
      metadata: { offset, limit, total, count: rows.length },
    };
  }

  /**
   * `/chat/new` (chatRouter.ts:193-235, chatInterface.ts:141-330): the chat is made by sending its
   * first message. Only the Private API takes `effectId` and `subject` (AppleScript drops them,
   * and `/chat/new`, unlike `/message/text`, does not switch to the Private API for them);
   * errors thrown there are plain Errors, answered 500 by the error middleware.
   */
  #newChat(body: Body): unknown {
    const addresses = body.addresses;
    if (!Array.isArray(addresses)) throw badRequest('The addresses field is required.');
    const message = optionalString(body, 'message');
    const service = body.service === 'SMS' ? 'SMS' : 'iMessage';
    const method = body.method === 'private-api' ? 'private-api' : 'apple-script';
    const tempGuid = optionalString(body, 'tempGuid');
    if (addresses.length === 0) throw serverError('No addresses provided!');
    if (method === 'apple-script' && addresses.length > 1) {
      throw serverError('Cannot create group chats on macOS Big Sur or newer!');
    }
    if (method === 'apple-script' && !message) {
      throw serverError('A message is required when creating chats on macOS Big Sur or newer!');
    }
    if (method === 'private-api' && !message) {
      throw serverError('A message is required when creating chats with the Private API!');
    }
    if (method === 'private-api') this.#requirePrivateApi('Failed to create chat');
    const members = addresses.map(String);
    const group = members.length > 1;
    const guid = group
      ? `iMessage;+;chat${Math.floor(Math.random() * 1e15)}`
      : this.#directGuid(service, members[0] ?? '');
    const chat = this.#ensureChat(guid, members);
    if (service === 'SMS' && !group) this.#smsHandles.add(members[0] ?? '');
    this.#checkQueue(tempGuid, 'Message is already queued to be sent!');
    const privateApi = method === 'private-api';
    const sent = this.#outgoing(chat.guid, {
      text: message ?? '',
      ...(privateApi
        ? {
            expressiveSendStyleId: optionalString(body, 'effectId') ?? null,
            subject: optionalString(body, 'subject') ?? null,
          }
        : {}),
    });
    this.#lifecycle(sent, tempGuid);
    if (sent.error !== 0) {
      throw new FakeHttpError(500, 'Failed to create chat', 'Message failed to send!', {
        ...this.#serialize(sent, true),
        ...(tempGuid ? { tempGuid } : {}),
      });
    }
    return ok('Successfully created chat!', {
      ...this.#serializeChat(chat, true),
      messages: [{ ...this.#serialize(sent, false), ...(tempGuid ? { tempGuid } : {}) }],
    });
  }

  #participant(guid: string, body: Body, add: boolean): unknown {
    const chat = this.#groupChat(guid);
    const address = requiredString(body, 'address');
    this.#requirePrivateApi(add ? 'Failed to add participant' : 'Failed to remove participant');
    if (add && !chat.participants.includes(address)) chat.participants.push(address);
    if (!add) chat.participants = chat.participants.filter((a) => a !== address);
    this.#handleRow(address);
    this.#ownGroupAction(
      chat,
      { itemType: 1, groupActionType: add ? 0 : 1, otherHandle: this.#handleRow(address) },
      add ? 'participant-added' : 'participant-removed',
    );
    return ok(
      `Successfully ${add ? 'added' : 'removed'} participant!`,
      this.#serializeChat(chat, true),
    );
  }

  /** A group change the Mac made through the API: Messages records it as the Mac's own message. */
  #ownGroupAction(
    chat: FakeBlueBubblesChat,
    fields: Partial<FakeBlueBubblesMessage>,
    type: FakePostedEventType,
  ): void {
    const message = this.#insert({ chatGuid: chat.guid, isFromMe: true, handle: null, ...fields });
    this.#post(type, this.#serialize(message, true));
    this.#post('new-message', this.#serialize(message, true));
  }

  // ---- helpers ----

  #authenticate(query: Query): void {
    const given = query.password ?? query.guid ?? query.token;
    if (given !== this.password) {
      throw new FakeHttpError(
        401,
        'You are not authorized to access this resource',
        'Unauthorized',
      );
    }
  }

  /** The send method after BlueBubbles' rules: effect, subject or reply force the Private API. */
  #method(body: Body | Record<string, string>): 'apple-script' | 'private-api' {
    const forced = ['effectId', 'subject', 'selectedMessageGuid'].some((key) =>
      Boolean((body as Body)[key]),
    );
    if (forced) return 'private-api';
    return (body as Body).method === 'private-api' ? 'private-api' : 'apple-script';
  }

  #checkQueue(tempGuid: string | undefined, message: string): void {
    if (tempGuid && this.#sendCache.has(tempGuid)) throw badRequest(message);
  }

  /** PrivateApiMiddleware.ts: routes behind it answer 500 before validating anything. */
  #privateApiMiddleware(): void {
    const problem = !this.switches.privateApi
      ? PRIVATE_API_DISABLED
      : !this.switches.helperConnected
        ? HELPER_DISCONNECTED
        : undefined;
    if (problem) {
      throw new FakeHttpError(
        500,
        'Please make sure you have completed the setup for the Private API, and your helper is connected!',
        problem,
      );
    }
  }

  /** The GUID of a direct chat: `any;-;` on macOS 26 whatever the service, else by service. */
  #directGuid(service: 'iMessage' | 'SMS', address: string): string {
    return `${this.switches.anyGuids ? 'any' : service};-;${address}`;
  }

  #requirePrivateApi(action: string): void {
    if (!this.switches.privateApi) throw new FakeHttpError(500, action, PRIVATE_API_DISABLED);
    if (!this.switches.helperConnected) throw new FakeHttpError(500, action, HELPER_DISCONNECTED);
  }

  #chat(guid: string): FakeBlueBubblesChat {
    const chat = this.chats.get(guid);
    if (!chat) throw notFound('Chat does not exist!');
    return chat;
  }

  #groupChat(guid: string): FakeBlueBubblesChat {
    const chat = this.#chat(guid);
    if (chat.style !== 43) throw badRequest('Chat is not a group chat!');
    return chat;
  }

  /** The chat `guid`, created with `participants` when new. */
  #ensureChat(guid: string, participants: string[]): FakeBlueBubblesChat {
    let chat = this.chats.get(guid);
    if (!chat) {
      chat = {
        guid,
        style: guid.includes(';+;') ? 43 : 45,
        displayName: '',
        participants: [...participants],
        joined: true,
        read: true,
      };
      this.chats.set(guid, chat);
      this.#chatRows.set(guid, this.#chatRows.size + 1);
      for (const address of participants) this.#handleRow(address);
    }
    return chat;
  }

  #message(guid: string): FakeBlueBubblesMessage {
    const message = this.messages.get(guid);
    if (!message) throw new Error(`the fake has no message ${guid}`);
    return message;
  }

  #serviceOf(address: string): 'iMessage' | 'SMS' {
    return this.#smsHandles.has(address) ? 'SMS' : 'iMessage';
  }

  #handleRow(address: string): number {
    let row = this.#handles.get(address);
    if (row === undefined) {
      row = this.#handles.size + 1;
      this.#handles.set(address, row);
    }
    return row;
  }

  #insert(
    fields: Pick<FakeBlueBubblesMessage, 'chatGuid' | 'isFromMe' | 'handle'> &
      Partial<FakeBlueBubblesMessage>,
  ): FakeBlueBubblesMessage {
    this.#rowId += 1;
    const message = newMessage({ ROWID: this.#rowId, ...fields }, this.#now());
    this.messages.set(message.guid, message);
    return message;
  }

  #serializeChat(chat: FakeBlueBubblesChat, withParticipants: boolean): Record<string, unknown> {
    return serializeChat(
      chat,
      this.#chatRows.get(chat.guid) ?? 0,
      (address) => this.#handleRow(address),
      withParticipants,
      (address) => this.#serviceOf(address),
    );
  }

  /** A message as BlueBubbles serializes it; `updated-message` payloads carry no `chats`. */
  #serialize(message: FakeBlueBubblesMessage, withChats: boolean): Record<string, unknown> {
    const chat = this.chats.get(message.chatGuid);
    let attachmentRow = 0;
    return {
      originalROWID: message.ROWID,
      guid: message.guid,
      text: message.text,
      attributedBody: null,
      handle: message.handle
        ? serializeHandle(
            message.handle,
            this.#handleRow(message.handle),
            this.#serviceOf(message.handle),
          )
        : null,
      handleId: message.handle ? this.#handleRow(message.handle) : 0,
      otherHandle: message.otherHandle,
      attachments: message.attachments.map((a) => serializeAttachment(a, ++attachmentRow)),
      subject: message.subject,
      error: message.error,
      dateCreated: message.dateCreated,
      dateRead: message.dateRead,
      dateDelivered: message.dateDelivered,
      isDelivered: message.dateDelivered !== null,
      isFromMe: message.isFromMe,
      hasDdResults: false,
      isArchived: false,
      itemType: message.itemType,
      groupTitle: message.groupTitle,
      groupActionType: message.groupActionType,
      balloonBundleId: null,
      associatedMessageGuid: message.associatedMessageGuid,
      associatedMessageType: message.associatedMessageType,
      expressiveSendStyleId: message.expressiveSendStyleId,
      threadOriginatorGuid: message.threadOriginatorGuid,
      threadOriginatorPart: message.threadOriginatorPart,
      hasPayloadData: false,
      isAudioMessage: message.isAudioMessage,
      dateEdited: message.dateEdited,
      dateRetracted: message.dateRetracted,
      partCount: message.partCount,
      ...(withChats && chat ? { chats: [this.#serializeChat(chat, false)] } : {}),
    };
  }

  /** Posts `{type, data}` to every webhook subscribed to `type`: unsigned, never retried. */
  #post(type: FakePostedEventType, data: unknown): void {
    if ((this.faults.loseWebhooks ?? 0) > 0) {
      this.faults.loseWebhooks = (this.faults.loseWebhooks ?? 0) - 1;
      return;
    }
    this.webhookCalls.push({ type, data });
    const body = JSON.stringify({ type, data });
    const copies = this.faults.duplicateWebhooks ? 2 : 1;
    for (const webhook of this.#webhooks) {
      if (!webhook.events.some((e) => e.value === '*' || e.value === type)) continue;
      for (let copy = 0; copy < copies; copy++) {
        const call = fetch(webhook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(30_000),
        })
          .then((response) => response.arrayBuffer())
          .catch(() => undefined);
        this.#pending.add(call);
        void call.finally(() => this.#pending.delete(call));
      }
    }
  }

  #later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    this.#timers.add(timer);
  }
}
