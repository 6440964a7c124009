import { FormData, request } from 'undici';

/** Where the adapter finds a BlueBubbles Server, and how long it waits. */
export interface BlueBubblesApiOptions {
  /** Base URL of the server, e.g. `http://192.168.1.20:1234`. */
  serverUrl: string;
  /** The server password, sent as the `password` query parameter (BlueBubbles' only auth). */
  password: string;
  /** Deadline of one ordinary call, in milliseconds. */
  timeoutMs: number;
  /**
   * Deadline of a send: BlueBubbles answers only once Messages has the message, and AppleScript
   * sends can take two minutes before answering 500 although delivered (upstream #801).
   */
  sendTimeoutMs: number;
}

/** A BlueBubbles message, as its serializer answers it (the fields the adapter reads). */
export interface BlueBubblesMessage {
  guid: string;
  text: string | null;
  subject?: string | null;
  /** The other party; `service` (`iMessage`, `SMS`) tells the channel of a macOS 26 `any;-;` chat. */
  handle: { address: string; service?: string } | null;
  otherHandle?: number | null;
  isFromMe: boolean;
  error: number;
  dateCreated: number | null;
  dateDelivered: number | null;
  dateRead: number | null;
  dateEdited?: number | null;
  dateRetracted?: number | null;
  attachments?: {
    guid: string;
    mimeType: string | null;
    transferName: string | null;
    totalBytes?: number | null;
    isSticker?: boolean;
  }[];
  associatedMessageGuid: string | null;
  associatedMessageType: string | null;
  threadOriginatorGuid?: string | null;
  itemType: number;
  groupActionType: number;
  groupTitle: string | null;
  isAudioMessage?: boolean;
  chats?: BlueBubblesChat[];
  /** Present on the answer to a send and on its webhooks, when the send gave one. */
  tempGuid?: string;
}

/** A BlueBubbles chat (the fields the adapter reads). */
export interface BlueBubblesChat {
  guid: string;
  style: number;
  displayName: string | null;
  participants?: { address: string; service?: string }[];
  messages?: BlueBubblesMessage[];
  /** The Mac's own handle the chat was last addressed to; absent from webhook payloads. */
  lastAddressedHandle?: string | null;
}

/** `/server/info`. */
export interface BlueBubblesServerInfo {
  os_version: string;
  server_version: string;
  private_api: boolean;
  helper_connected: boolean;
  detected_icloud: string | null;
  detected_imessage: string | null;
}

/**
 * A call BlueBubbles answered with an error, or could not be made. `status` 0 means no answer
 * (network failure, timeout). `data` is what BlueBubbles put in the error body (a failed send
 * carries the message, with its `error` code).
 */
export class BlueBubblesApiError extends Error {
  override readonly name = 'BlueBubblesApiError';

  /** An error of one call. */
  constructor(
    message: string,
    /** The HTTP status, or 0 when the server did not answer. */
    readonly status: number,
    /** BlueBubbles' `error.type` (`iMessage Error`, `Validation Error`, …). */
    readonly type: string | undefined,
    /** What the error body carried in `data`. */
    readonly data: unknown,
    /** True when the call timed out (it may still have taken effect). */
    readonly timedOut = false,
  ) {
    super(message);
  }

  /** True when the server did not answer, or answered 5xx: the call may have taken effect. */
  get uncertain(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

/** A file in a multipart request. */
export interface BlueBubblesFile {
  /** The bytes. */
  data: Uint8Array;
  /** The file name. */
  name: string;
  /** MIME type. */
  mimeType: string;
}

type Json = Record<string, unknown>;

/** Handles per `/handle/query` page (the server's maximum). */
export const HANDLE_PAGE = 1_000;

/**
 * A small client of the BlueBubbles Server REST API (`/api/v1`): the password as a query
 * parameter, JSON or multipart bodies, the `{status, message, data}` envelope unwrapped and its
 * error shape `{status, message, error: {type, message}, data}` turned into
 * {@link BlueBubblesApiError}.
 */
export class BlueBubblesApi {
  readonly #options: BlueBubblesApiOptions;

  /** A client of one server. */
  constructor(options: BlueBubblesApiOptions) {
    this.#options = options;
  }

  /** `GET /server/info`. */
  serverInfo(): Promise<BlueBubblesServerInfo> {
    return this.#json('GET', '/server/info');
  }

  /** `POST /message/text`. */
  sendText(body: Json): Promise<BlueBubblesMessage> {
    return this.#json('POST', '/message/text', body, this.#options.sendTimeoutMs);
  }

  /** `POST /message/attachment` (multipart: the file as `attachment`, the rest as fields). */
  sendAttachment(
    fields: Record<string, string>,
    file: BlueBubblesFile,
  ): Promise<BlueBubblesMessage> {
    return this.#multipart('/message/attachment', fields, file, this.#options.sendTimeoutMs);
  }

  /** `POST /attachment/upload`: stores a file for a multipart send; answers its path. */
  async upload(file: BlueBubblesFile): Promise<string> {
    const data = await this.#multipart<{ path: string }>('/attachment/upload', {}, file);
    return data.path;
  }

  /** `POST /message/multipart`. */
  sendMultipart(body: Json): Promise<BlueBubblesMessage> {
    return this.#json('POST', '/message/multipart', body, this.#options.sendTimeoutMs);
  }

  /** `POST /message/react`. */
  react(body: Json): Promise<BlueBubblesMessage> {
    return this.#json('POST', '/message/react', body);
  }

  /** `POST /message/:guid/edit`. */
  edit(guid: string, body: Json): Promise<unknown> {
    return this.#json('POST', `/message/${encodeURIComponent(guid)}/edit`, body);
  }

  /** `POST /message/:guid/unsend`. */
  unsend(guid: string, body: Json): Promise<unknown> {
    return this.#json('POST', `/message/${encodeURIComponent(guid)}/unsend`, body);
  }

  /** `GET /message/:guid?with=chats,attachment`, or null when the Mac does not know it. */
  async message(guid: string): Promise<BlueBubblesMessage | null> {
    return this.#orNull(() =>
      this.#json<BlueBubblesMessage>(
        'GET',
        `/message/${encodeURIComponent(guid)}`,
        undefined,
        undefined,
        { with: 'chats,attachment' },
      ),
    );
  }

  /**
   * `POST /message/query` in one chat: its messages created at or before `before` (epoch ms),
   * newest first.
   */
  queryChat(chatGuid: string, before: number, limit: number): Promise<BlueBubblesMessage[]> {
    return this.#json('POST', '/message/query', {
      chatGuid,
      before,
      offset: 0,
      limit,
      sort: 'DESC',
      with: ['chats', 'attachment', 'handle'],
    });
  }

  /** `POST /message/query`: messages created at or after `after` (epoch ms), oldest first. */
  queryMessages(after: number, offset: number, limit: number): Promise<BlueBubblesMessage[]> {
    return this.#json('POST', '/message/query', {
      after,
      offset,
      limit,
      sort: 'ASC',
      with: ['chats', 'attachment', 'handle'],
    });
  }

  /** `POST /chat/new`: creates a chat by sending its first message. */
  newChat(body: Json): Promise<BlueBubblesChat> {
    return this.#json('POST', '/chat/new', body, this.#options.sendTimeoutMs);
  }

  /** `GET /chat/:guid?with=participants`, or null when the Mac does not know it. */
  chat(guid: string): Promise<BlueBubblesChat | null> {
    return this.#orNull(() =>
      this.#json<BlueBubblesChat>(
        'GET',
        `/chat/${encodeURIComponent(guid)}`,
        undefined,
        undefined,
        {
          with: 'participants',
        },
      ),
    );
  }

  /** `PUT /chat/:guid` with a new display name. */
  renameChat(guid: string, displayName: string): Promise<BlueBubblesChat> {
    return this.#json('PUT', `/chat/${encodeURIComponent(guid)}`, { displayName });
  }

  /** `POST` (add) or `DELETE` (remove) `/chat/:guid/participant`. */
  participant(guid: string, address: string, add: boolean): Promise<BlueBubblesChat> {
    return this.#json(add ? 'POST' : 'DELETE', `/chat/${encodeURIComponent(guid)}/participant`, {
      address,
    });
  }

  /** `POST /chat/:guid/leave`. */
  leaveChat(guid: string): Promise<unknown> {
    return this.#json('POST', `/chat/${encodeURIComponent(guid)}/leave`);
  }

  /**
   * `POST /chat/:guid/typing`: starts typing. (Upstream's `DELETE` twin starts typing too, so
   * the client has no stop.)
   */
  startTyping(guid: string): Promise<unknown> {
    return this.#json('POST', `/chat/${encodeURIComponent(guid)}/typing`);
  }

  /** `POST /chat/:guid/read` or `/unread`. */
  markChat(guid: string, read: boolean): Promise<unknown> {
    return this.#json('POST', `/chat/${encodeURIComponent(guid)}/${read ? 'read' : 'unread'}`);
  }

  /** `GET /handle/availability/imessage|facetime?address=`. */
  async availability(service: 'imessage' | 'facetime', address: string): Promise<boolean> {
    const data = await this.#json<{ available: boolean }>(
      'GET',
      `/handle/availability/${service}`,
      undefined,
      undefined,
      { address },
    );
    return data.available === true;
  }

  /** `GET /handle/:address/focus`: `silenced` while the contact has a Focus on. */
  async focus(address: string): Promise<string> {
    const data = await this.#json<{ status: string }>(
      'GET',
      `/handle/${encodeURIComponent(address)}/focus`,
    );
    return data.status;
  }

  /**
   * `POST /handle/query`: one page of the Mac's handles (addresses with their ROWIDs), at most
   * 1,000, the most the server's validator allows (bluebubbles-server@f2e2286
   * packages/server/src/server/api/http/api/v1/validators/handleValidator.ts `limit: max:1000`).
   */
  handles(offset = 0): Promise<{ originalROWID: number; address: string }[]> {
    return this.#json('POST', '/handle/query', { offset, limit: HANDLE_PAGE });
  }

  /** `GET /webhook`: the registered webhooks. */
  webhooks(): Promise<{ id: number; url: string }[]> {
    return this.#json('GET', '/webhook');
  }

  /** `POST /webhook`: registers `url` for `events`. */
  addWebhook(url: string, events: readonly string[]): Promise<{ id: number }> {
    return this.#json('POST', '/webhook', { url, events });
  }

  /** `DELETE /webhook/:id`. */
  deleteWebhook(id: number): Promise<unknown> {
    return this.#json('DELETE', `/webhook/${id}`);
  }

  /**
   * `GET /attachment/:guid/download?original=true`: the file as it came, at most `maxBytes`, with
   * the type the Mac serves. Without `original` BlueBubbles serves a HEIC as JPEG and a CAF as
   * MP3 (bluebubbles-server@f2e2286 packages/server/src/server/api/http/api/v1/routers/attachmentRouter.ts:61-71).
   */
  async download(
    guid: string,
    maxBytes: number,
  ): Promise<{ data: Uint8Array; contentType: string | undefined }> {
    const response = await this.#send(
      'GET',
      this.#url(`/attachment/${encodeURIComponent(guid)}/download`, { original: 'true' }),
      {},
      this.#options.sendTimeoutMs,
    );
    if (response.statusCode !== 200) {
      const text = await response.body.text().catch(() => '');
      throw errorOf(response.statusCode, text);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).byteLength;
      if (size > maxBytes) {
        response.body.destroy();
        throw new BlueBubblesApiError(
          `the attachment is larger than ${maxBytes} bytes`,
          413,
          undefined,
          undefined,
        );
      }
      chunks.push(chunk as Buffer);
    }
    const served = response.headers['content-type'];
    const contentType = (Array.isArray(served) ? served[0] : served)?.split(';')[0]?.trim();
    return { data: new Uint8Array(Buffer.concat(chunks)), contentType: contentType || undefined };
  }

  async #orNull<T>(call: () => Promise<T>): Promise<T | null> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof BlueBubblesApiError && error.status === 404) return null;
      throw error;
    }
  }

  #url(path: string, query: Record<string, string> = {}): URL {
    const url = new URL(`/api/v1${path}`, this.#options.serverUrl);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    url.searchParams.set('password', this.#options.password);
    return url;
  }

  async #json<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: Json,
    timeoutMs?: number,
    query?: Record<string, string>,
  ): Promise<T> {
    const response = await this.#send(
      method,
      this.#url(path, query),
      body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      timeoutMs,
    );
    return this.#unwrap<T>(response);
  }

  async #multipart<T>(
    path: string,
    fields: Record<string, string>,
    file: BlueBubblesFile,
    timeoutMs?: number,
  ): Promise<T> {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    form.set('attachment', new Blob([Buffer.from(file.data)], { type: file.mimeType }), file.name);
    const response = await this.#send('POST', this.#url(path), { body: form }, timeoutMs);
    return this.#unwrap<T>(response);
  }

  async #send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: URL,
    init: { headers?: Record<string, string>; body?: string | FormData },
    timeoutMs = this.#options.timeoutMs,
  ): Promise<Awaited<ReturnType<typeof request>>> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await request(url, {
        method,
        headers: { accept: 'application/json', ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body }),
        signal,
      });
    } catch (error) {
      const timedOut = signal.aborted;
      throw new BlueBubblesApiError(
        timedOut
          ? `BlueBubbles did not answer within ${timeoutMs} ms`
          : `BlueBubbles could not be reached: ${error instanceof Error ? error.message : String(error)}`,
        0,
        undefined,
        undefined,
        timedOut,
      );
    }
  }

  async #unwrap<T>(response: Awaited<ReturnType<typeof request>>): Promise<T> {
    let text: string;
    try {
      text = await response.body.text();
    } catch {
      throw new BlueBubblesApiError(
        'BlueBubbles did not finish its answer',
        0,
        undefined,
        undefined,
        true,
      );
    }
    if (response.statusCode >= 200 && response.statusCode < 300) {
      const envelope = JSON.parse(text) as { data?: unknown };
      return envelope.data as T;
    }
    throw errorOf(response.statusCode, text);
  }
}

/** The error of a non-2xx answer, from BlueBubbles' `{status, message, error: {type, message}, data}`. */
function errorOf(status: number, text: string): BlueBubblesApiError {
  let message = `BlueBubbles answered HTTP ${status}`;
  let type: string | undefined;
  let data: unknown;
  try {
    const body = JSON.parse(text) as {
      message?: unknown;
      error?: { type?: unknown; message?: unknown } | string;
      data?: unknown;
    };
    const detail = typeof body.error === 'object' ? body.error?.message : body.error;
    if (typeof body.error === 'object' && typeof body.error?.type === 'string') {
      type = body.error.type;
    }
    const parts = [body.message, detail].filter(
      (part): part is string => typeof part === 'string' && part !== '',
    );
    if (parts.length > 0) message = parts.join(': ');
    data = body.data;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return new BlueBubblesApiError(message, status, type, data);
}
