import { randomUUID } from 'node:crypto';

/** A chat the fake Mac knows. `style` 43 is a group, 45 a direct chat, as in chat.db. */
export interface FakeBlueBubblesChat {
  /** `iMessage;-;+1555…`, `SMS;-;…`, `any;-;…` or `iMessage;+;chat…`. */
  guid: string;
  /** 43 group, 45 direct. */
  style: 43 | 45;
  /** The group's name; empty for direct chats. */
  displayName: string;
  /** Member addresses, the Mac's own account aside. */
  participants: string[];
  /** False once the Mac left the group. */
  joined: boolean;
  /** Read state on the Mac. */
  read: boolean;
  /** The Mac's own handle the chat was last addressed to (a second number, an e-mail alias). */
  lastAddressedHandle?: string;
}

/** An attachment of a message, with its bytes. */
export interface FakeBlueBubblesAttachment {
  /** The attachment GUID. */
  guid: string;
  /** MIME type. */
  mimeType: string;
  /** File name. */
  transferName: string;
  /** The bytes. */
  data: Uint8Array;
  /** True when the Mac sent it. */
  isOutgoing: boolean;
  /** True for a sticker. */
  isSticker: boolean;
}

/** A row of the fake's message table, in the fields BlueBubbles serializes. */
export interface FakeBlueBubblesMessage {
  /** Row id; increases with each insert (the reconciliation order). */
  ROWID: number;
  /** The message GUID (upper-case UUID, as Messages makes them). */
  guid: string;
  /** Text, or null for group actions. */
  text: string | null;
  /** Subject line. */
  subject: string | null;
  /** The other party: the sender of a received message; the recipient of a sent direct one; null for sent group messages. */
  handle: string | null;
  /** True when the Mac sent it. */
  isFromMe: boolean;
  /** 0, or the Messages error code of a failed send (4 timeout, 22 not registered). */
  error: number;
  /** Epoch milliseconds. */
  dateCreated: number;
  /** Epoch milliseconds or null. */
  dateDelivered: number | null;
  /** Epoch milliseconds or null. */
  dateRead: number | null;
  /** Epoch milliseconds or null. */
  dateEdited: number | null;
  /** Epoch milliseconds or null. */
  dateRetracted: number | null;
  /** Attachments. */
  attachments: FakeBlueBubblesAttachment[];
  /** The target of a tapback, in its raw `p:0/<guid>` form. */
  associatedMessageGuid: string | null;
  /** The tapback as BlueBubbles sends it: a string (`love`, `-love`, `sticker`, or a number such as `2006`). */
  associatedMessageType: string | null;
  /** The message a reply threads under. */
  threadOriginatorGuid: string | null;
  /** The part of the originator replied to, as `<part>:<start>:<length>`. */
  threadOriginatorPart: string | null;
  /** The effect id. */
  expressiveSendStyleId: string | null;
  /** 0 message, 1 participant change, 2 rename, 3 left or group photo, 5 kept an audio message. */
  itemType: number;
  /** 0 added / 1 removed (with itemType 1); 0 left / 1 photo changed / 2 photo removed (with itemType 3). */
  groupActionType: number;
  /** The new name of a rename. */
  groupTitle: string | null;
  /** The handle ROWID a group action is about (not its address: a quirk of BlueBubbles). */
  otherHandle: number;
  /** The chat. */
  chatGuid: string;
  /** A voice memo. */
  isAudioMessage: boolean;
  /** Parts of a multipart message. */
  partCount: number;
  /** When any of the dates last changed (what `/message/query` with `after` compares on updates). */
  dateUpdated: number;
}

/** A message GUID as Messages makes them. */
export function messageGuid(): string {
  return randomUUID().toUpperCase();
}

/** A new message row with the defaults of a plain text message. */
export function newMessage(
  fields: Pick<FakeBlueBubblesMessage, 'ROWID' | 'chatGuid' | 'isFromMe' | 'handle'> &
    Partial<FakeBlueBubblesMessage>,
  now: number,
): FakeBlueBubblesMessage {
  return {
    guid: messageGuid(),
    text: null,
    subject: null,
    error: 0,
    dateCreated: now,
    dateDelivered: null,
    dateRead: null,
    dateEdited: null,
    dateRetracted: null,
    attachments: [],
    associatedMessageGuid: null,
    associatedMessageType: null,
    threadOriginatorGuid: null,
    threadOriginatorPart: null,
    expressiveSendStyleId: null,
    itemType: 0,
    groupActionType: 0,
    groupTitle: null,
    otherHandle: 0,
    isAudioMessage: false,
    partCount: 1,
    dateUpdated: now,
    ...fields,
  };
}

/** A handle as BlueBubbles serializes it. */
export function serializeHandle(
  address: string,
  rowId: number,
  service: 'iMessage' | 'SMS' = 'iMessage',
): Record<string, unknown> {
  return {
    originalROWID: rowId,
    address,
    service,
    uncanonicalizedId: null,
    country: 'us',
  };
}

/** A chat as BlueBubbles serializes it. */
export function serializeChat(
  chat: FakeBlueBubblesChat,
  rowId: number,
  handleRow: (address: string) => number,
  withParticipants: boolean,
  serviceOf: (address: string) => 'iMessage' | 'SMS' = () => 'iMessage',
): Record<string, unknown> {
  return {
    originalROWID: rowId,
    guid: chat.guid,
    style: chat.style,
    chatIdentifier: chat.guid.split(';').at(-1),
    isArchived: false,
    displayName: chat.displayName,
    isFiltered: false,
    groupId: chat.style === 43 ? chat.guid.split(';').at(-1) : '',
    // bluebubbles-server@f2e2286 packages/server/src/server/api/serializers/ChatSerializer.ts:87-96
    // (`last_addressed_handle`, entity/Chat.ts:81-82); upstream leaves it out of webhook payloads.
    lastAddressedHandle: chat.lastAddressedHandle ?? null,
    ...(withParticipants
      ? {
          participants: chat.participants.map((a) =>
            serializeHandle(a, handleRow(a), serviceOf(a)),
          ),
        }
      : {}),
  };
}

/** An attachment as BlueBubbles serializes it. */
/**
 * An attachment as BlueBubbles serializes it. The serializer converts as it goes (`convert: true`
 * by default, AttachmentSerializer.ts:59-70): a HEIC photo is described as the JPEG it becomes
 * and a CAF recording as an MP3 (databases/imessage/helpers/utils.ts:64-69, 117-121).
 */
export function serializeAttachment(attachment: FakeBlueBubblesAttachment, rowId: number) {
  const converted = CONVERTED_TYPES[attachment.mimeType];
  return {
    originalROWID: rowId,
    guid: attachment.guid,
    uti: attachment.mimeType.startsWith('image/') ? 'public.image' : 'public.data',
    mimeType: converted?.mimeType ?? attachment.mimeType,
    transferName: converted
      ? attachment.transferName.replace(/\.[^.]+$/, converted.extension)
      : attachment.transferName,
    totalBytes: attachment.data.byteLength,
    isOutgoing: attachment.isOutgoing,
    hideAttachment: false,
    isSticker: attachment.isSticker,
    originalGuid: attachment.guid,
    hasLivePhoto: false,
    height: 0,
    width: 0,
    metadata: null,
  };
}

/** What BlueBubbles converts attachments to, unless asked for the original. */
const CONVERTED_TYPES: Readonly<Record<string, { mimeType: string; extension: string }>> = {
  'image/heic': { mimeType: 'image/jpeg', extension: '.jpeg' },
  'audio/x-caf': { mimeType: 'audio/mp3', extension: '.mp3' },
};

/** The error body of BlueBubbles: `{status, message, error: {type, message}, data?}`. */
export function errorBody(
  status: 400 | 401 | 404 | 500 | 504,
  message: string,
  error: string,
  data?: unknown,
): Record<string, unknown> {
  const type = {
    400: 'Validation Error',
    401: 'Authentication Error',
    404: 'Database Error',
    500: 'iMessage Error',
    504: 'Gateway Timeout',
  }[status];
  return {
    status,
    message,
    error: { type, message: error },
    ...(data === undefined ? {} : { data }),
  };
}

/**
 * The webhook event types BlueBubbles Server lets a webhook subscribe to: the values of
 * `webhookEventOptions` (bluebubbles-server@f2e2286 packages/server/src/server/api/http/constants.ts:1-110).
 */
export const WEBHOOK_EVENT_TYPES = [
  '*',
  'new-message',
  'updated-message',
  'message-send-error',
  'group-name-change',
  'group-icon-changed',
  'group-icon-removed',
  'participant-removed',
  'participant-added',
  'participant-left',
  'chat-read-status-changed',
  'typing-indicator',
  'scheduled-message-error',
  'server-update',
  'new-server',
  'new-findmy-location',
  'hello-world',
  'incoming-facetime',
  'ft-call-status-changed',
  'imessage-alias-removed',
  'theme-backup-created',
  'theme-backup-updated',
  'theme-backup-deleted',
  'settings-backup-created',
  'settings-backup-updated',
  'settings-backup-deleted',
] as const;

/** The event types the fake itself posts to webhooks (each has a row in the fidelity table). */
export const FAKE_POSTED_EVENT_TYPES = [
  'new-message',
  'updated-message',
  'message-send-error',
  'group-name-change',
  'participant-added',
  'participant-removed',
  'participant-left',
  'group-icon-changed',
  'group-icon-removed',
  'chat-read-status-changed',
  'typing-indicator',
  'incoming-facetime',
  'ft-call-status-changed',
] as const;

/** An event type the fake posts. */
export type FakePostedEventType = (typeof FAKE_POSTED_EVENT_TYPES)[number];

/** The BlueBubbles Server version the fake reproduces (`packages/server/package.json` at f2e2286). */
export const UPSTREAM_SERVER_VERSION = '1.9.9';

/** The major macOS version of a version string (`14.5.0` → 14). */
export function macOsMajor(version: string): number {
  return Number.parseInt(version.split('.')[0] ?? '0', 10) || 0;
}

/** Switches of the Mac behind the fake: what BlueBubbles reports in `/server/info` and enforces. */
export interface FakeBlueBubblesSwitches {
  /** The Private API is enabled in BlueBubbles' settings. */
  privateApi: boolean;
  /** The Private API helper (injected into Messages) is connected. */
  helperConnected: boolean;
  /** macOS version, e.g. `14.5.0`: edit and unsend need 13+, emoji tapbacks 14+. */
  macOsVersion: string;
  /** The iMessage account detected, or null. */
  detectedIMessage: string | null;
  /** The iCloud account detected, or null. */
  detectedICloud: string | null;
  /** `/chat/new` writes `any;-;` GUIDs for direct chats (macOS 26 Tahoe). */
  anyGuids: boolean;
  /**
   * `/message/react` accepts any single emoji (a server newer than any released, on macOS 14+).
   * Off by default, as in bluebubbles-server f2e2286, whose validator takes only the twelve
   * classic tapback strings. Pair it with a `serverVersion` above 1.9.9.
   */
  emojiTapbacks: boolean;
  /** What `/server/info` reports as `server_version` (default 1.9.9, the version of f2e2286). */
  serverVersion: string;
  /**
   * The experimental FaceTime Calling setting (`facetime_calling`, off by default upstream): off,
   * a ring is posted only as `incoming-facetime`; on, only as `ft-call-status-changed`.
   */
  faceTimeCalling: boolean;
}
