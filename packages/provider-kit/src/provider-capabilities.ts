import type { Channel, WhatsAppParticipant } from '@switchboard/contract';
import type {
  ProviderDestination,
  ProviderMessageRef,
  ProviderOperation,
} from './provider-operation';
import type { ProviderReaction } from './provider-reaction';

/** An edit of a sent message. */
export interface ProviderEditRequest extends ProviderOperation {
  /** The message to edit; sent by this instance. */
  message: ProviderMessageRef;
  /** The new text. */
  text: string;
  /** Text shown by devices that cannot display edits. */
  backwardsCompatibilityMessage?: string;
}

/** An unsend (retraction) of a sent message. */
export interface ProviderUnsendRequest extends ProviderOperation {
  /** The message to unsend; sent by this instance. */
  message: ProviderMessageRef;
}

/** Adding or removing this instance's reaction on a message. */
export interface ProviderReactRequest extends ProviderOperation {
  /** The message reacted to. */
  message: ProviderMessageRef;
  /** The reaction. */
  reaction: ProviderReaction;
  /** True to take back a reaction added earlier. */
  remove: boolean;
}

/** Showing or hiding this instance's typing indicator. */
export interface ProviderTypingRequest extends ProviderOperation {
  /** The chat or contact. */
  to: ProviderDestination;
  /** `start` (WhatsApp: composing) or `stop` (WhatsApp: paused). */
  status: 'start' | 'stop';
}

/** An operation on one chat. */
export interface ProviderChatRequest extends ProviderOperation {
  /** The provider chat id. */
  chatId: string;
}

/** Creating a group chat. */
export interface ProviderCreateGroupRequest extends ProviderOperation {
  /** Members to invite, besides the instance: E.164, e-mail style addresses or WhatsApp handles. */
  participants: readonly string[];
  /** The group name; required on WhatsApp. */
  name?: string;
  /** A first message, for upstreams that only create a chat by sending into it (BlueBubbles). */
  text?: string;
}

/** Renaming a group chat. */
export interface ProviderRenameGroupRequest extends ProviderChatRequest {
  /** The new name. */
  name: string;
}

/** Adding or removing a group member. */
export interface ProviderParticipantRequest extends ProviderChatRequest {
  /** The member: E.164, e-mail style address or WhatsApp handle. */
  participant: string;
}

/**
 * A chat member. The API's participant shape serves both channels: on iMessage the handle is the
 * address, `isPhoneResolved` is true and `admin` null.
 */
export type ProviderParticipant = WhatsAppParticipant;

/** A chat as the provider knows it. */
export interface ProviderChat {
  /** The provider chat id. */
  chatId: string;
  /** The chat's channel. */
  channel: Channel;
  /** True for a group. */
  isGroup: boolean;
  /** The group name, when it has one. */
  name?: string;
  /** Members, besides the instance. */
  participants: ProviderParticipant[];
  /**
   * The message the upstream sent to create the chat when the caller wrote none (iMessage has no
   * empty group: BlueBubbles creates one by sending into it).
   */
  firstMessage?: string;
}

/**
 * What every optional capability declares: the channels it works on. The gateway calls a
 * capability on a channel only when the capability is present and names the channel (and the
 * instance serves it); for the rest it answers `CHANNEL_NOT_SUPPORTED` itself (see
 * `capability-lookup.ts`), so an adapter never writes a refusal.
 */
export interface ProviderCapability {
  /** The channels the capability works on; a subset of the provider's. */
  readonly channels: readonly Channel[];
}

/** Replacing the text of a sent message (iMessage edits). */
export interface EditCapability extends ProviderCapability {
  /** Replaces the text of a sent message (`EDIT_FAILED`, `PROVIDER_TIMEOUT` on failure). */
  edit(request: ProviderEditRequest): Promise<void>;
}

/** Retracting a sent message (iMessage unsend). */
export interface UnsendCapability extends ProviderCapability {
  /** Retracts a sent message. */
  unsend(request: ProviderUnsendRequest): Promise<void>;
}

/** This instance's reactions on messages (tapbacks, emoji). */
export interface ReactionCapability extends ProviderCapability {
  /** Adds or removes this instance's reaction on a message. */
  react(request: ProviderReactRequest): Promise<void>;
}

/** This instance's typing indicator (chat state). */
export interface TypingCapability extends ProviderCapability {
  /** Shows or hides this instance's typing indicator; it times out on its own upstream. */
  typing(request: ProviderTypingRequest): Promise<void>;
}

/** A chat's read state. */
export interface ReadStateCapability extends ProviderCapability {
  /** Marks a chat read (sending read receipts where enabled). */
  markRead(request: ProviderChatRequest): Promise<void>;
  /** Marks a chat unread. */
  markUnread(request: ProviderChatRequest): Promise<void>;
}

/** Looking a chat up upstream: its kind, name and members. */
export interface ChatLookupCapability extends ProviderCapability {
  /** The chat as the upstream knows it, or null when it does not know it. */
  getChat(request: ProviderChatRequest): Promise<ProviderChat | null>;
}

/** Group chats: creating them, renaming them, their members, leaving them. */
export interface GroupCapability extends ProviderCapability {
  /** Creates a group chat. */
  createGroup(request: ProviderCreateGroupRequest): Promise<ProviderChat>;
  /** Renames a group chat. */
  renameGroup(request: ProviderRenameGroupRequest): Promise<void>;
  /** Adds a member to a group chat; answers the member as the upstream normalized it. */
  addParticipant(request: ProviderParticipantRequest): Promise<ProviderParticipant>;
  /** Removes a member from a group chat. */
  removeParticipant(request: ProviderParticipantRequest): Promise<void>;
  /** Makes the instance leave a group chat. */
  leaveGroup(request: ProviderChatRequest): Promise<void>;
}

/**
 * The optional capabilities of a provider, by name: an adapter declares those its upstream can
 * do (Twilio none, Baileys reactions, typing, chats and groups on whatsapp…), each with the
 * channels it works on.
 */
export interface ProviderCapabilities {
  /** Editing sent messages. */
  readonly edits?: EditCapability;
  /** Unsending sent messages. */
  readonly unsend?: UnsendCapability;
  /** Reactions. */
  readonly reactions?: ReactionCapability;
  /** Typing indicators. */
  readonly typing?: TypingCapability;
  /** Read and unread state of chats. */
  readonly readState?: ReadStateCapability;
  /** Chat lookups. */
  readonly chats?: ChatLookupCapability;
  /** Group chats. */
  readonly groups?: GroupCapability;
}

/** The name of an optional capability. */
export type ProviderCapabilityName = keyof ProviderCapabilities;

/** What each capability is called in a `CHANNEL_NOT_SUPPORTED` answer. */
export const CAPABILITY_LABELS: Readonly<Record<ProviderCapabilityName, string>> = {
  edits: 'Editing a message',
  unsend: 'Unsending a message',
  reactions: 'Reactions',
  typing: 'Typing indicators',
  readState: 'Read state',
  chats: 'Chat lookups',
  groups: 'Group chats',
};

/** Every optional capability's name. */
export const PROVIDER_CAPABILITY_NAMES = Object.keys(CAPABILITY_LABELS) as ProviderCapabilityName[];
