import { createHash } from 'node:crypto';
import type {
  ProviderInboundAttachment,
  ProviderInboundEvent,
  ProviderLogger,
} from '@switchboard/provider-kit';
import { type BlueBubblesApi, type BlueBubblesMessage, HANDLE_PAGE } from './bluebubbles-api';
import {
  channelOfChat,
  chatOf,
  cleanText,
  contactEvents,
  deviceSendEvent,
  faceTimeStatusOf,
  isGroupChat,
  type MappingContext,
  ownSendStatuses,
} from './bluebubbles-events';
import type { MacStatus } from './bluebubbles-mac';
import type { BlueBubblesSendLedger } from './bluebubbles-send-ledger';

/** The webhook types whose `data` is a message. */
const MESSAGE_WEBHOOKS = new Set([
  'new-message',
  'updated-message',
  'message-send-error',
  'group-name-change',
  'participant-added',
  'participant-removed',
  'participant-left',
  'group-icon-changed',
  'group-icon-removed',
]);

/** Messages' item type of a "kept an audio message" row. */
const KEPT_AUDIO = 5;
/** How many of a chat's latest messages are searched for the voice memo a contact kept. */
const KEPT_AUDIO_SEARCH = 50;

/** What turning BlueBubbles' news into provider events needs. */
export interface BlueBubblesInboundOptions {
  /** The Mac's API. */
  api: BlueBubblesApi;
  /** The instance's sends, to tell the gateway's messages from ones typed on the Mac. */
  ledger: BlueBubblesSendLedger;
  /** The instance address. */
  mac: MacStatus;
  /** The time source. */
  now: () => number;
  /** The largest attachment downloaded. */
  maxAttachmentBytes: number;
  /** Where oddities are logged. */
  logger: ProviderLogger;
  /** True when the event with this upstream id was reported already (its files are not fetched again). */
  reported: (upstreamId: string) => boolean;
}

/**
 * Turns what BlueBubbles tells (a webhook, a message found by reconciliation) into provider
 * events: message webhooks are confirmed by fetching the message from the Mac, the Mac's own
 * sends are told apart from messages typed on it, attachments are downloaded, group members
 * given as handle ROWIDs are resolved, FaceTime rings are reported whichever way the Mac posts them.
 */
export class BlueBubblesInbound {
  readonly #options: BlueBubblesInboundOptions;
  /** Handle ROWIDs to addresses (group changes name members by ROWID). */
  readonly #handles = new Map<number, string>();
  /**
   * The Mac's own handles contacts' messages were addressed to since the start (the chats'
   * `lastAddressedHandle`, which the fetched message carries and webhooks do not).
   */
  readonly receivingHandles = new Set<string>();

  /** An inbound mapper over one instance. */
  constructor(options: BlueBubblesInboundOptions) {
    this.#options = options;
  }

  /**
   * The events of a webhook `{type, data}`, or null when it names a message the Mac does not
   * know (a forged call).
   */
  async eventsOfWebhook(type: string, data: unknown): Promise<ProviderInboundEvent[] | null> {
    const now = new Date(this.#options.now());
    if (MESSAGE_WEBHOOKS.has(type)) {
      const posted = data as Partial<BlueBubblesMessage> | undefined;
      if (typeof posted?.guid !== 'string') return [];
      const message = await this.#options.api.message(posted.guid);
      if (!message) return null;
      return this.eventsOfMessage(
        { ...message, ...(posted.tempGuid ? { tempGuid: posted.tempGuid } : {}) },
        chatOf(message) ?? chatOf(posted as BlueBubblesMessage),
      );
    }
    switch (type) {
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
            to: await this.#options.mac.address(),
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
            to: await this.#options.mac.address(),
            read: read.read !== false,
          },
        ];
      }
      case 'incoming-facetime':
        return this.#faceTimeRing(data, now);
      case 'ft-call-status-changed':
        return this.#faceTimeEvents(data, now);
      default:
        return [];
    }
  }

  /** The events of one message, whatever told of it (a webhook, reconciliation). */
  async eventsOfMessage(
    message: BlueBubblesMessage,
    chatGuid: string | undefined,
  ): Promise<ProviderInboundEvent[]> {
    const context: MappingContext = {
      address: await this.#options.mac.address(),
      now: new Date(this.#options.now()),
    };
    if (message.isFromMe) {
      if (message.itemType !== 0 || message.associatedMessageType) {
        // The Mac's own group changes and tapbacks: made through the gateway, already recorded.
        return [];
      }
      const attemptId = await this.#attemptOf(message, chatGuid);
      if (attemptId !== undefined) return ownSendStatuses(message, chatGuid, context, attemptId);
      return deviceSendEvent(message, chatGuid, context, await this.#attachmentsOf(message));
    }
    if (message.itemType === KEPT_AUDIO) return this.#audioKept(message, chatGuid, context);
    await this.#learnHandles(message, chatGuid);
    const addressed = message.chats?.[0]?.lastAddressedHandle;
    if (addressed) this.receivingHandles.add(addressed);
    return contactEvents(message, chatGuid, context, await this.#attachmentsOf(message), (rowId) =>
      this.#handles.get(rowId),
    );
  }

  /**
   * A contact kept a voice memo (Messages' item type 5 row, "kept an audio message", which
   * BlueBubbles posts as a plain `new-message`). The row names no message: the target is the
   * latest voice memo the Mac sent into the chat before it (see
   * docs/decisions/0403-bluebubbles-kept-audio-and-group-photo.md).
   */
  async #audioKept(
    message: BlueBubblesMessage,
    chatGuid: string | undefined,
    context: MappingContext,
  ): Promise<ProviderInboundEvent[]> {
    const from = message.handle?.address;
    if (!from || !chatGuid) return [];
    const named =
      message.associatedMessageGuid?.replace(/^p:\d+\//, '') ?? message.threadOriginatorGuid;
    let target = named ?? undefined;
    if (target === undefined) {
      const before = message.dateCreated ?? context.now.getTime();
      const recent = await this.#options.api.queryChat(chatGuid, before, KEPT_AUDIO_SEARCH);
      target = recent.find((m) => m.isFromMe && m.isAudioMessage === true)?.guid;
    }
    if (target === undefined) {
      this.#options.logger.warn(
        { guid: message.guid, chatGuid },
        'a contact kept a voice memo the Mac does not show as sent; not reported',
      );
      return [];
    }
    return [
      {
        kind: 'message.audio_kept',
        channel: 'imessage',
        occurredAt: new Date(message.dateCreated ?? context.now.getTime()),
        upstreamEventId: message.guid,
        externalId: message.guid,
        from,
        to: context.address,
        targetExternalId: target,
      },
    ];
  }

  /**
   * `incoming-facetime`, the only FaceTime event of a server with FaceTime Calling off (its
   * default): `data` is a JSON string `{caller, timestamp}` with no call id and no kind of call
   * (bluebubbles-server@f2e2286 PrivateApiFaceTimeStatusHandler.ts:42-55). The call id is made
   * from the caller and time, so a repeat of the same ring is the same call; the call counts as
   * video, as upstream's own default has it (PrivateApiFaceTimeStatusHandler.ts:98).
   */
  async #faceTimeRing(data: unknown, now: Date): Promise<ProviderInboundEvent[]> {
    let ring: { caller?: unknown; timestamp?: unknown };
    try {
      ring = JSON.parse(
        typeof data === 'string' ? data : JSON.stringify(data ?? {}),
      ) as typeof ring;
    } catch {
      return [];
    }
    if (typeof ring?.caller !== 'string' || ring.caller === '') return [];
    const at = typeof ring.timestamp === 'number' ? ring.timestamp : now.getTime();
    const callUuid = ringUuid(ring.caller, at);
    return [
      {
        kind: 'facetime.incoming',
        channel: 'imessage',
        occurredAt: new Date(at),
        upstreamEventId: `${callUuid}:ring`,
        callUuid,
        caller: ring.caller,
        to: await this.#options.mac.address(),
        isVideo: true,
      },
    ];
  }

  /**
   * `ft-call-status-changed`, posted instead of `incoming-facetime` when FaceTime Calling is on:
   * `incoming` once per call, then `disconnected`; `answered` and outgoing calls are never posted
   * (PrivateApiFaceTimeStatusHandler.ts:57-101).
   */
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
    const common = {
      channel: 'imessage' as const,
      callUuid: call.uuid,
      to: await this.#options.mac.address(),
      isVideo: call.is_video === true,
    };
    if (status === 'incoming') {
      if (call.is_outgoing === true) return [];
      return [
        {
          kind: 'facetime.incoming',
          ...common,
          occurredAt: now,
          upstreamEventId: `${call.uuid}:ring`,
          caller: address,
        },
      ];
    }
    return [
      {
        kind: 'facetime.status',
        ...common,
        occurredAt: now,
        upstreamEventId: `${call.uuid}:${status}`,
        address,
        status,
        isOutgoing: call.is_outgoing === true,
      },
    ];
  }

  /**
   * The attempt a message the Mac sent belongs to, when the gateway sent it: by its GUID, its
   * `tempGuid` (`<attemptId>` or `<attemptId>:<file>`), or a pending attempt with its text.
   */
  async #attemptOf(
    message: BlueBubblesMessage,
    chatGuid: string | undefined,
  ): Promise<string | undefined> {
    const ledger = this.#options.ledger;
    const byGuid = await ledger.attemptOf(message.guid);
    if (byGuid !== undefined) return byGuid;
    const byTemp = message.tempGuid?.replace(/:\d+$/, '');
    const entry = byTemp === undefined ? undefined : await ledger.entry(byTemp);
    const attemptId =
      entry && byTemp !== undefined
        ? byTemp
        : await ledger.pendingMatch(
            chatGuid,
            cleanText(message.text),
            message.dateCreated ?? this.#options.now(),
          );
    if (attemptId === undefined) return undefined;
    // The first message of the attempt is the one it answers with; later parts keep their own GUIDs.
    const known = entry ?? (await ledger.entry(attemptId));
    if (known?.guid === undefined) await ledger.sent(attemptId, message.guid, chatGuid);
    else await ledger.attach(attemptId, message.guid);
    return attemptId;
  }

  /**
   * The bytes of a message's attachments, downloaded from the Mac (a LAN address is fine here);
   * none for a message reported already, whose event is dropped anyway.
   */
  async #attachmentsOf(message: BlueBubblesMessage): Promise<ProviderInboundAttachment[]> {
    if (this.#options.reported(message.guid)) return [];
    const attachments: ProviderInboundAttachment[] = [];
    for (const attachment of message.attachments ?? []) {
      const common = {
        providerId: attachment.guid,
        mimeType: attachment.mimeType ?? 'application/octet-stream',
        ...(attachment.transferName ? { filename: attachment.transferName } : {}),
        ...(typeof attachment.totalBytes === 'number' ? { totalBytes: attachment.totalBytes } : {}),
      };
      try {
        const { data, contentType } = await this.#options.api.download(
          attachment.guid,
          this.#options.maxAttachmentBytes,
        );
        // The original file: its type is the one served, not the serializer's (which describes
        // the JPEG/MP3 a HEIC/CAF is converted to, AttachmentSerializer.ts:59-70).
        const served =
          contentType &&
          contentType !== common.mimeType &&
          contentType !== 'application/octet-stream'
            ? {
                mimeType: contentType,
                ...(common.filename ? { filename: renamed(common.filename, contentType) } : {}),
                totalBytes: data.byteLength,
              }
            : {};
        attachments.push({ ...common, ...served, content: { kind: 'bytes', data } });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        attachments.push({
          ...common,
          content: { kind: 'unavailable', reason: `the Mac did not give the file: ${reason}` },
        });
      }
    }
    return attachments;
  }

  /** Learns handle ROWIDs (group changes name members by ROWID) when one is new. */
  async #learnHandles(message: BlueBubblesMessage, chatGuid: string | undefined): Promise<void> {
    const rowId = message.otherHandle;
    if (message.itemType !== 1 || !rowId || this.#handles.has(rowId)) return;
    // Page through: a Mac with a long history has more handles than one page holds.
    for (let offset = 0; !this.#handles.has(rowId); offset += HANDLE_PAGE) {
      const handles = await this.#options.api.handles(offset).catch(() => []);
      for (const handle of handles) this.#handles.set(handle.originalROWID, handle.address);
      if (handles.length < HANDLE_PAGE) break;
    }
    if (!this.#handles.has(rowId) && chatGuid) {
      this.#options.logger.warn(
        { rowId, chatGuid },
        'a group change names a handle the Mac does not list',
      );
    }
  }
}

/** A UUID-shaped id of a ring that came without one: the same caller and time give the same id. */
function ringUuid(caller: string, timestamp: number): string {
  const hex = createHash('sha256').update(`${caller}\n${timestamp}`).digest('hex');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `5${hex.slice(13, 16)}`,
    `${((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}`,
    hex.slice(20, 32),
  ]
    .join('-')
    .toUpperCase();
}

/** A file name with the extension of `mimeType` (`IMG_3.jpeg`, `image/heic` → `IMG_3.heic`). */
function renamed(filename: string, mimeType: string): string {
  const extension = mimeType.split('/')[1]?.replace(/^x-/, '').split(/[+;]/)[0];
  if (!extension) return filename;
  return `${filename.replace(/\.[^.]+$/, '')}.${extension}`;
}
