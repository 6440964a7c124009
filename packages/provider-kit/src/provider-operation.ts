import type { Channel } from '@switchboard/contract';

/**
 * Where a message goes or lives: an address (E.164, e-mail style, a WhatsApp JID) or the
 * provider's chat id (`iMessage;+;chat…`, `<id>@g.us`). Adapters that need a chat for a plain
 * address (BlueBubbles' `chatGuid`) look one up or build it themselves.
 */
export type ProviderDestination =
  | { type: 'address'; address: string }
  | { type: 'chat'; chatId: string };

/**
 * A message the provider sent or received earlier, as the gateway remembers it: enough for every
 * upstream to address it again (BlueBubbles needs the GUID, Baileys a key of chat, id, fromMe and
 * participant).
 */
export interface ProviderMessageRef {
  /** The provider's id of the message. */
  externalId: string;
  /** The conversation it belongs to: the contact's address or the provider chat id. */
  conversation: ProviderDestination;
  /** True when this instance sent it. */
  fromMe: boolean;
  /** Who sent it, for a message received in a group. */
  author?: string;
  /** The part of a multi-part iMessage, when not the first. */
  partIndex?: number;
}

/** What every operation carries: the channel and the instance address acting. */
export interface ProviderOperation {
  /** The channel to act on; one of the provider's `channels`. */
  channel: Channel;
  /** The instance address acting (a Twilio number, the Mac's account, the WhatsApp session). */
  from: string;
}
