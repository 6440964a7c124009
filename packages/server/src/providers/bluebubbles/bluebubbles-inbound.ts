import type {
  ProviderInboundAttachment,
  ProviderInboundEvent,
  ProviderLogger,
} from '@switchboard/provider-kit';
import type { BlueBubblesApi, BlueBubblesMessage } from './bluebubbles-api';
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
]);

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
 * given as handle ROWIDs are resolved, FaceTime rings are paired with their call status.
 */
export class BlueBubblesInbound {
  readonly #options: BlueBubblesInboundOptions;
  /** Handle ROWIDs to addresses (group changes name members by ROWID). */
  readonly #handles = new Map<number, string>();
  /** Callers of FaceTime rings not yet paired with their call status, with the ring's time. */
  readonly #rings = new Map<string, number>();

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
      case 'incoming-facetime': {
        // A JSON string: '{"caller":"+1…","timestamp":…}'. Paired with the call's status event.
        const ring = JSON.parse(typeof data === 'string' ? data : '{}') as {
          caller?: unknown;
          timestamp?: unknown;
        };
        if (typeof ring.caller === 'string') {
          this.#rings.set(
            ring.caller,
            typeof ring.timestamp === 'number' ? ring.timestamp : now.getTime(),
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
    await this.#learnHandles(message, chatGuid);
    return contactEvents(message, chatGuid, context, await this.#attachmentsOf(message), (rowId) =>
      this.#handles.get(rowId),
    );
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
    const common = {
      channel: 'imessage' as const,
      callUuid: call.uuid,
      to: await this.#options.mac.address(),
      isVideo: call.is_video === true,
    };
    if (status === 'incoming') {
      if (call.is_outgoing === true) return [];
      const rang = this.#rings.get(address);
      this.#rings.delete(address);
      return [
        {
          kind: 'facetime.incoming',
          ...common,
          occurredAt: rang === undefined ? now : new Date(rang),
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
        const data = await this.#options.api.download(
          attachment.guid,
          this.#options.maxAttachmentBytes,
        );
        attachments.push({ ...common, content: { kind: 'bytes', data } });
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
    const handles = await this.#options.api.handles().catch(() => []);
    for (const handle of handles) this.#handles.set(handle.originalROWID, handle.address);
    if (!this.#handles.has(rowId) && chatGuid) {
      this.#options.logger.warn(
        { rowId, chatGuid },
        'a group change names a handle the Mac does not list',
      );
    }
  }
}
