import type { Channel } from '@switchboard/contract';
import {
  type ProviderDestination,
  ProviderError,
  type ProviderInboundEvent,
  type ProviderOutboundAttachment,
  type ProviderSendRequest,
  type ProviderSendResult,
} from '@switchboard/provider-kit';
import {
  type BlueBubblesApi,
  BlueBubblesApiError,
  type BlueBubblesFile,
  type BlueBubblesMessage,
} from './bluebubbles-api';
import { providerErrorOf } from './bluebubbles-errors';
import { chatOf, cleanText, EFFECT_IDS, sendFailure } from './bluebubbles-events';
import type { MacStatus } from './bluebubbles-mac';
import { addressOf } from './bluebubbles-operation-deps';
import type { BlueBubblesSendLedger } from './bluebubbles-send-ledger';

/** Messages looked through for a send after an uncertain answer: one reconciliation page. */
const SENT_LOOKUP_PAGE = 200;

/** Effect and reply fields, and whether a voice memo goes through the Private API. */
interface SendExtras {
  readonly privateApi: boolean;
  readonly voiceMemo: boolean;
  readonly fields: Record<string, unknown>;
}

/** What every way of sending one attempt shares. */
interface SendPlan {
  readonly request: ProviderSendRequest;
  readonly text: string;
  readonly files: BlueBubblesFile[];
  readonly method: 'private-api' | 'apple-script';
  readonly tempGuid: string;
  readonly extras: SendExtras;
}

/** What a send needs of its instance. */
export interface BlueBubblesOutboundDeps {
  /** The BlueBubbles Server API. */
  readonly api: BlueBubblesApi;
  /** What the Mac can do now (Private API, send method). */
  readonly mac: MacStatus;
  /** Where each attempt is written down before it is made. */
  readonly ledger: BlueBubblesSendLedger;
  /** The time source (epoch milliseconds). */
  now(): number;
  /** Fetches a media URL, for instances that may (absent: URLs are refused). */
  readonly fetchMedia?:
    | ((url: string) => Promise<{ data: Uint8Array; contentType: string | undefined }>)
    | undefined;
  /** Reports an event through the instance's ordered delivery. */
  deliver(event: ProviderInboundEvent): Promise<void>;
  /** The BlueBubbles chat GUID of a destination, looked up; undefined when there is none yet. */
  chatFor(channel: Channel, to: ProviderDestination): Promise<string | undefined>;
}

/**
 * One send of a started instance. Text goes to `/message/text` (or `/chat/new` for a contact with
 * no chat yet), one file to `/message/attachment`, text with files on iMessage to
 * `/message/multipart` through the Private API (one message), or as separate messages without it
 * and on SMS. Each attempt is written down first, so a re-driven one is found, not sent twice.
 */
export class BlueBubblesOutbound {
  readonly #deps: BlueBubblesOutboundDeps;

  /** The send path of one instance. */
  constructor(deps: BlueBubblesOutboundDeps) {
    this.#deps = deps;
  }

  /**
   * Sends one attempt. Text goes to `/message/text` (or `/chat/new` for a contact with no chat
   * yet), one file to `/message/attachment`, text with files on iMessage to `/message/multipart`
   * through the Private API (one message), or as separate messages without it and on SMS.
   */
  async send(request: ProviderSendRequest): Promise<ProviderSendResult> {
    const ledger = this.#deps.ledger;
    if ((await ledger.entry(request.attemptId)) !== undefined) {
      // Begun before (a crash, an uncertain answer): what it became, if anything, answers.
      const found = await this.#findSent(request.attemptId).catch(() => undefined);
      if (found) return found;
    }
    const files = await this.#files(request);
    const text = request.text ?? '';
    const chatGuid = await this.#deps.chatFor(request.channel, request.to);
    await ledger.begin(request.attemptId, {
      text,
      startedAt: this.#deps.now(),
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
  /**
   * Sends the parts of one attempt the way they fit: text alone, one file alone, text with files
   * as one multipart message, or as separate messages.
   */
  async #sendParts(
    request: ProviderSendRequest,
    chatGuid: string | undefined,
    text: string,
    files: BlueBubblesFile[],
  ): Promise<ProviderSendResult> {
    const extras = await this.#sendExtras(request);
    const method = extras.privateApi ? 'private-api' : await this.#deps.mac.sendMethod();
    const plan: SendPlan = { request, text, files, method, tempGuid: request.attemptId, extras };
    if (files.length === 0) return this.#sendText(plan, chatGuid);
    const target = chatGuid ?? this.#inferredChat(request);
    if (files.length === 1 && text === '') return this.#sendOneFile(plan, target);
    // SMS gets one MMS per attachment (spec rule 5): a multipart message only on iMessage.
    if (request.channel === 'imessage' && (await this.#deps.mac.privateApiReady())) {
      return this.#sendMultipart(plan, target);
    }
    return this.#sendSeparately(plan, target);
  }

  /** Sends text alone: to its chat, or through `/chat/new` for a contact with no chat yet. */
  async #sendText(plan: SendPlan, chatGuid: string | undefined): Promise<ProviderSendResult> {
    const { request, text, method, tempGuid, extras } = plan;
    if (chatGuid === undefined) {
      const address = addressOf(request.to);
      // `/chat/new` takes `effectId` (and `subject`), through the Private API only
      // (bluebubbles-server@f2e2286 packages/server/src/server/api/http/api/v1/routers/chatRouter.ts:193-215).
      const chat = await this.#deps.api.newChat({
        addresses: [address],
        message: text,
        service: request.channel === 'sms' ? 'SMS' : 'iMessage',
        method,
        tempGuid,
        ...(typeof extras.fields.effectId === 'string' ? { effectId: extras.fields.effectId } : {}),
      });
      const sent = chat.messages?.[0];
      if (!sent)
        throw new BlueBubblesApiError('BlueBubbles created no message', 500, undefined, undefined);
      return this.#result(request, sent, chat.guid);
    }
    const sent = await this.#deps.api.sendText({
      chatGuid,
      message: text,
      tempGuid,
      method,
      ...extras.fields,
    });
    return this.#result(request, sent, chatGuid);
  }

  /** Sends one file with no text through `/message/attachment`. */
  async #sendOneFile(plan: SendPlan, target: string): Promise<ProviderSendResult> {
    const { request, method, tempGuid, extras } = plan;
    const file = plan.files[0] as BlueBubblesFile;
    const sent = await this.#deps.api.sendAttachment(
      {
        chatGuid: target,
        name: file.name,
        tempGuid,
        method,
        ...(extras.voiceMemo ? { isAudioMessage: 'true' } : {}),
        ...stringFields(extras.fields),
      },
      file,
    );
    return this.#result(request, sent, target);
  }

  /** Sends one message of several parts (a gallery) through the Private API: text first, then each file. */
  async #sendMultipart(plan: SendPlan, target: string): Promise<ProviderSendResult> {
    const { request, text, files, tempGuid, extras } = plan;
    const parts: Record<string, unknown>[] = [];
    if (text !== '') parts.push({ partIndex: 0, text });
    for (const file of files) {
      const path = await this.#deps.api.upload(file);
      parts.push({ partIndex: parts.length, attachment: path, name: file.name });
    }
    const sent = await this.#deps.api.sendMultipart({
      chatGuid: target,
      tempGuid,
      parts,
      ...extras.fields,
    });
    return this.#result(request, sent, target);
  }

  /** Sends the text, then each file, as messages of their own (on SMS, or without the Private API). */
  async #sendSeparately(plan: SendPlan, target: string): Promise<ProviderSendResult> {
    const { request, text, files, method, tempGuid, extras } = plan;
    const sentParts: { externalId: string; kind: 'text' | 'attachment' }[] = [];
    if (text !== '') {
      const sent = await this.#deps.api.sendText({
        chatGuid: target,
        message: text,
        tempGuid,
        method,
      });
      sentParts.push({ externalId: sent.guid, kind: 'text' });
    }
    for (const [index, file] of files.entries()) {
      const sent = await this.#deps.api.sendAttachment(
        {
          chatGuid: target,
          name: file.name,
          tempGuid: `${tempGuid}:${index}`,
          method,
          ...(extras.voiceMemo && request.attachments?.[index]?.isAudioMessage
            ? { isAudioMessage: 'true' }
            : {}),
        },
        file,
      );
      sentParts.push({ externalId: sent.guid, kind: 'attachment' });
    }
    const [first] = sentParts;
    if (!first) throw new Error('a send makes at least one message');
    this.#fireSent(request, first.externalId);
    for (const part of sentParts.slice(1)) this.#fireSent(request, part.externalId);
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
    this.#fireSent(request, sent.guid);
    return { externalId: sent.guid, chatId: chatGuid };
  }

  /** Reports `sent` right after the send answer (the webhook may never come). */
  #fireSent(request: ProviderSendRequest, guid: string): void {
    setImmediate(() => {
      this.#deps
        .deliver({
          kind: 'message.status',
          channel: request.channel,
          occurredAt: new Date(this.#deps.now()),
          upstreamEventId: `${guid}:sent`,
          externalId: guid,
          attemptId: request.attemptId,
          status: 'sent',
        })
        .catch(() => undefined);
    });
  }

  /**
   * Effect and reply fields, and voice memos, which BlueBubbles only sends through the Private API
   * (AppleScript sends an audio file as a plain file: see
   * docs/decisions/0404-bluebubbles-voice-memos-need-the-private-api.md). A voice memo is an
   * iMessage thing: on SMS the file goes as a plain file (spec rule 7).
   */
  async #sendExtras(request: ProviderSendRequest): Promise<SendExtras> {
    const fields: Record<string, unknown> = {};
    const voiceMemo =
      request.channel === 'imessage' &&
      (request.attachments ?? []).some((attachment) => attachment.isAudioMessage === true);
    if (request.effect !== undefined && request.channel === 'imessage') {
      fields.effectId = EFFECT_IDS[request.effect];
    }
    if (request.replyTo !== undefined && request.channel === 'imessage') {
      fields.selectedMessageGuid = request.replyTo.externalId;
      fields.partIndex = request.replyTo.partIndex ?? 0;
    }
    if (Object.keys(fields).length === 0 && !voiceMemo) {
      return { privateApi: false, voiceMemo, fields };
    }
    const reason = await this.#deps.mac.privateApiMissing();
    if (reason !== undefined) {
      const what =
        voiceMemo && Object.keys(fields).length === 0 ? 'voice memos' : 'effects and replies';
      throw new ProviderError(
        'IMESSAGE_SEND_FAILED',
        `${what} need the BlueBubbles Private API: ${reason}`,
        { channel: request.channel, fallback: true },
      );
    }
    return { privateApi: true, voiceMemo, fields };
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
      const fetchMedia = this.#deps.fetchMedia;
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

  /** The direct chat GUID of an address with no chat yet, as BlueBubbles infers it for AppleScript. */
  #inferredChat(request: ProviderSendRequest): string {
    return `${request.channel === 'sms' ? 'SMS' : 'iMessage'};-;${addressOf(request.to)}`;
  }

  /**
   * The error a failed send answers. A message the Mac created with an error (22: not on
   * iMessage) is certain; a timeout or a bare 500 is not (an AppleScript send can be delivered
   * and still answer 500 after two minutes): the Mac is asked first, and the send is reported as
   * a timeout, never re-sent blindly.
   */
  async #sendError(request: ProviderSendRequest, error: unknown): Promise<unknown> {
    const ledger = this.#deps.ledger;
    if (error instanceof ProviderError) {
      await ledger.refused(request.attemptId);
      return error;
    }
    if (!(error instanceof BlueBubblesApiError)) return error;
    const failed = error.data as BlueBubblesMessage | undefined;
    if (typeof failed?.error === 'number' && failed.error !== 0) {
      await ledger.refused(request.attemptId);
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
    await ledger.refused(request.attemptId);
    return providerErrorOf(error, request.channel, 'send');
  }

  /**
   * Whether an attempt became a message after all: its GUID from a webhook, or a message the Mac
   * sent into its chat since it started with the same text.
   */
  async #findSent(attemptId: string): Promise<ProviderSendResult | undefined> {
    const entry = await this.#deps.ledger.entry(attemptId);
    if (!entry) return undefined;
    if (entry.guid !== undefined) return resultOf(entry.guid, entry.chatGuid);
    const messages = await this.#deps.api.queryMessages(
      entry.startedAt - 2_000,
      0,
      SENT_LOOKUP_PAGE,
    );
    const match = messages.find(
      (message) =>
        message.isFromMe &&
        (message.tempGuid === attemptId ||
          ((entry.chatGuid === undefined || chatOf(message) === entry.chatGuid) &&
            cleanText(message.text) === entry.text.trim())),
    );
    if (!match) return undefined;
    const chatGuid = chatOf(match) ?? entry.chatGuid;
    await this.#deps.ledger.sent(attemptId, match.guid, chatGuid);
    return resultOf(match.guid, chatGuid);
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

/** Multipart fields are strings. */
function stringFields(fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)]));
}

/** A file name for a file that came without one. */
function fileNameOf(mimeType: string, index: number): string {
  const extension = mimeType.split('/')[1]?.split(/[+;]/)[0] ?? 'bin';
  return `attachment-${index + 1}.${extension}`;
}
