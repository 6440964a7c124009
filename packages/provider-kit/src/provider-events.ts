import type { Channel } from '@switchboard/contract';
import type { ProviderFailure } from './provider-error';
import type { ProviderReaction } from './provider-reaction';

/** What every provider event carries. */
interface ProviderEventBase {
  /** The channel the event happened on (FaceTime events come from the iMessage instance). */
  channel: Channel;
  /** When the upstream says it happened. */
  occurredAt: Date;
  /**
   * The upstream's own id of this event (a BlueBubbles message GUID plus its change, a Twilio
   * `MessageSid` plus status), when it has one: the gateway remembers it per instance and drops
   * the event when it comes again (redelivered, or replayed after an upstream restart).
   */
  upstreamEventId?: string;
}

/** A delivery status a provider reports for a message it sent. */
export type ProviderDeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** Fields of a status update, whatever the status. */
interface ProviderStatusEventBase extends ProviderEventBase {
  kind: 'message.status';
  /** The provider's id of the message, as `send` returned it. */
  externalId: string;
  /**
   * The `attemptId` of the send, when the upstream echoes it (BlueBubbles `tempGuid`, a Twilio
   * callback URL parameter). Lets the gateway match an update that races the `send` response.
   */
  attemptId?: string;
  /** In a group, the member this receipt is for (WhatsApp reports receipts per participant). */
  recipient?: string;
}

/**
 * A status update of an outbound message: `sent` once the upstream handed it on, then
 * `delivered`, `read`, or `failed` (which a carrier can report even after `sent`). Updates may
 * arrive late or twice; the gateway keeps status monotonic.
 */
export type ProviderStatusEvent = ProviderStatusEventBase &
  (
    | { status: 'sent' | 'delivered' | 'read' }
    | {
        status: 'failed';
        /** Why the message failed, as a spec error code. */
        error: ProviderFailure;
      }
  );

/** Where the bytes of an inbound attachment come from. */
export type ProviderAttachmentContent =
  /** The provider already holds the bytes (Baileys decrypts media before reporting it). */
  | { kind: 'bytes'; data: Uint8Array }
  /** The gateway fetches them, with these headers (BlueBubbles and Twilio media need auth). */
  | { kind: 'url'; url: string; headers?: Readonly<Record<string, string>> }
  /** The metadata arrived but the bytes cannot be had; becomes the attachment's `note`. */
  | { kind: 'unavailable'; reason: string };

/** An attachment of an inbound message. */
export interface ProviderInboundAttachment {
  /** The upstream's attachment id (the BlueBubbles GUID); iMessage only. */
  providerId?: string;
  /** MIME type as the upstream reported it. */
  mimeType: string;
  /** File name, when the sender supplied one. */
  filename?: string;
  /** Size in bytes, when known before fetching. */
  totalBytes?: number;
  /** How to get the bytes. */
  content: ProviderAttachmentContent;
}

/** A message a contact sent to one of the instance's addresses. */
export interface ProviderInboundMessageEvent extends ProviderEventBase {
  kind: 'message.inbound';
  /** The provider's id of the message. */
  externalId: string;
  /** Sender: E.164, e-mail style address, or a WhatsApp `@lid` handle while unresolved. */
  from: string;
  /** The instance address that received it (selects the customer). */
  to: string;
  /** The provider chat id, when known (always for a group). */
  chatId?: string;
  /** True when it arrived in a group chat. */
  isGroup: boolean;
  /** Text; empty when the message only carries attachments. */
  text: string;
  /** Attachments, in order; empty when none. */
  attachments: readonly ProviderInboundAttachment[];
  /** The provider id of the message it replies to, when it is a threaded reply or a quote. */
  replyToExternalId?: string;
  /** The sender's display name, when the upstream gives one (WhatsApp `pushName`). */
  senderName?: string;
  /**
   * What the upstream read the message as, when it handles opt-out keywords itself (Twilio's
   * `OptOutType` under Advanced Opt-Out, whose keywords the customer chooses): `stop`, `start`
   * or `help`. The gateway's opt-out ledger follows it over its own keyword list.
   */
  optOutType?: 'stop' | 'start' | 'help';
  /**
   * True for a message the instance's own device sent (typed on the Mac or phone, not through the
   * gateway): then `from` is the instance address and `to` the contact. Stored as an outbound
   * message with `source: "device"`.
   */
  fromMe?: boolean;
  /**
   * True for a message of a history sync (an upstream replaying old messages after linking):
   * stored, never emitted.
   */
  history?: boolean;
}

/** A message changed upstream after it was sent: its sender edited or unsent it. */
export interface ProviderMessageChangedEvent extends ProviderEventBase {
  kind: 'message.changed';
  /** The provider id of the message that changed. */
  externalId: string;
  /** Who changed it: the contact, or the instance address when its own device did. */
  from: string;
  /** The instance address. */
  to: string;
  /** The provider chat id, when in a group. */
  chatId?: string;
  /** What changed. */
  change: { type: 'edited'; text: string } | { type: 'unsent' };
}

/** A chat was marked read or unread on the instance's own device. */
export interface ProviderChatReadEvent extends ProviderEventBase {
  kind: 'chat.read';
  /** The provider chat id. */
  chatId: string;
  /** The instance address. */
  to: string;
  /** True when read, false when marked unread. */
  read: boolean;
}

/** A contact added or removed a reaction on a message. */
export interface ProviderReactionEvent extends ProviderEventBase {
  kind: 'message.reaction';
  /** The provider's id of the reaction itself. */
  externalId: string;
  /** The contact who reacted. */
  from: string;
  /** The instance address. */
  to: string;
  /** The provider chat id, when in a group. */
  chatId?: string;
  /** The provider id of the message reacted to. */
  targetExternalId: string;
  /** The reaction. */
  reaction: ProviderReaction;
  /** True when the contact took the reaction back. */
  removed: boolean;
}

/** A contact kept a voice message the instance sent (iMessage). */
export interface ProviderAudioKeptEvent extends ProviderEventBase {
  kind: 'message.audio_kept';
  /** The provider's id of the keep event. */
  externalId: string;
  /** The contact. */
  from: string;
  /** The instance address. */
  to: string;
  /** The provider id of the voice message. */
  targetExternalId: string;
}

/** A contact started or stopped typing. */
export interface ProviderTypingEvent extends ProviderEventBase {
  kind: 'typing';
  /** The contact. */
  from: string;
  /** The instance address. */
  to: string;
  /** The provider chat id, when in a group. */
  chatId?: string;
  /** `start` while composing, `stop` when paused. */
  status: 'start' | 'stop';
}

/** Fields of every group change. */
interface ProviderChatEventBase extends ProviderEventBase {
  kind: 'chat.event';
  /** The provider's id of the change (BlueBubbles reports group changes as messages). */
  externalId: string;
  /** The group's provider chat id. */
  chatId: string;
  /** Who made the change. */
  actor: string;
  /** The instance address. */
  to: string;
}

/** A change to a group chat made by a contact (or echoed by the upstream). */
export type ProviderChatEvent = ProviderChatEventBase &
  (
    | { action: 'participant.added' | 'participant.left'; participant: string }
    | { action: 'title.changed'; title: string }
    | { action: 'photo.changed' }
    | {
        action: 'participant.role_changed';
        participant: string;
        /** The member's new role; null when demoted to a plain member. */
        role: 'admin' | 'superadmin' | null;
      }
  );

/** The states of a FaceTime call, as the spec lists them. */
export type FaceTimeCallStatus =
  | 'incoming'
  | 'answered'
  | 'disconnected'
  | 'missed'
  | 'rejected'
  | 'failed';

/** A FaceTime call is ringing on the instance. */
export interface ProviderFaceTimeIncomingEvent extends ProviderEventBase {
  kind: 'facetime.incoming';
  /** The upstream's call id. */
  callUuid: string;
  /** The other party. */
  caller: string;
  /** The instance address called. */
  to: string;
  /** True for a video call, false for audio. */
  isVideo: boolean;
}

/** A FaceTime call changed state. */
export interface ProviderFaceTimeStatusEvent extends ProviderEventBase {
  kind: 'facetime.status';
  /** The upstream's call id. */
  callUuid: string;
  /** The other party. */
  address: string;
  /** The instance address. */
  to: string;
  /** The new state. */
  status: FaceTimeCallStatus;
  /** True when the instance placed the call. */
  isOutgoing: boolean;
  /** True for a video call, false for audio. */
  isVideo: boolean;
}

/**
 * Why a WhatsApp session dropped. `logged_out` means the credentials are gone (unlinked from the
 * phone, or deleted through the API); every other reason keeps them.
 */
export type WhatsAppDisconnectReason =
  | 'logged_out'
  | 'disconnected_by_api'
  | 'connection_lost'
  | 'connection_replaced'
  | 'qr_timeout'
  | 'bad_session'
  | 'forbidden'
  | 'multidevice_mismatch'
  | 'unavailable';

/** Fields of every WhatsApp connection update. */
interface ProviderWhatsAppConnectionEventBase extends ProviderEventBase {
  kind: 'whatsapp.connection';
  channel: 'whatsapp';
  /** The owned number whose session changed, E.164. */
  phoneNumber: string;
}

/** A WhatsApp session moved to another state. */
export type ProviderWhatsAppConnectionEvent = ProviderWhatsAppConnectionEventBase &
  (
    | { state: 'connecting' }
    | {
        state: 'qr_pending';
        /** The raw QR string to render; a new one replaces it each time the upstream rotates it. */
        qrCode: string;
      }
    | {
        state: 'connected';
        /** The linked account, `<digits>@s.whatsapp.net`. */
        jid: string;
      }
    | { state: 'disconnected'; reason: WhatsAppDisconnectReason }
    | {
        /** The session and its credentials are gone. */
        state: 'not_enabled';
      }
  );

/** The upstream issued a pairing code for a session (the alternative to scanning the QR). */
export interface ProviderWhatsAppPairingCodeEvent extends ProviderEventBase {
  kind: 'whatsapp.pairing_code';
  channel: 'whatsapp';
  /** The owned number being paired, E.164. */
  phoneNumber: string;
  /** The 8-character code to type on the phone. */
  code: string;
}

/** A linked-device id (`@lid`) turned out to belong to a phone number. */
export interface ProviderLidResolvedEvent extends ProviderEventBase {
  kind: 'whatsapp.lid_resolved';
  channel: 'whatsapp';
  /** The owned number whose session learned the mapping, E.164. */
  phoneNumber: string;
  /** The linked-device handle, `<id>@lid`. */
  lid: string;
  /** The phone JID it maps to, `<digits>@s.whatsapp.net`. */
  jid: string;
}

/** Everything that flows from a provider into the gateway, told apart by `kind`. */
export type ProviderInboundEvent =
  | ProviderStatusEvent
  | ProviderInboundMessageEvent
  | ProviderMessageChangedEvent
  | ProviderChatReadEvent
  | ProviderReactionEvent
  | ProviderAudioKeptEvent
  | ProviderTypingEvent
  | ProviderChatEvent
  | ProviderFaceTimeIncomingEvent
  | ProviderFaceTimeStatusEvent
  | ProviderWhatsAppConnectionEvent
  | ProviderWhatsAppPairingCodeEvent
  | ProviderLidResolvedEvent;

/** The `kind` values of {@link ProviderInboundEvent}. */
export type ProviderInboundEventKind = ProviderInboundEvent['kind'];

/**
 * The one entry point of provider events into the gateway. The provider awaits it: the gateway
 * resolves once it has recorded the event durably, and only then may the provider acknowledge the
 * upstream (answer Twilio's webhook, advance a BlueBubbles cursor). A rejection means "not
 * recorded": the provider redelivers or lets the upstream retry. Events of one message are
 * delivered in order, one at a time.
 */
export type ProviderEventSink = (event: ProviderInboundEvent) => Promise<void>;

/**
 * What the sink rejects with when the gateway could not record an event now (its database is
 * locked, read-only or full) but will be able to later: offer the event again after a while.
 * Any other rejection is final for that event.
 */
export class SinkUnavailableError extends Error {
  override readonly name = 'SinkUnavailableError';
}
