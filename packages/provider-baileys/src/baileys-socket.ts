import type { UserFacingSocketConfig, WAMessage, WASocket } from 'baileys';

/** Baileys' logger interface (not exported from its entry point). */
export type BaileysLogger = NonNullable<UserFacingSocketConfig['logger']>;

/**
 * The part of Baileys' `WASocket` the adapter uses, typed by Baileys' own declarations: a fake
 * socket implements exactly this, and a Baileys upgrade that changes any of it breaks compilation
 * here and in the fake.
 */
export type BaileysSocket = Pick<
  WASocket,
  | 'presenceSubscribe'
  | 'ev'
  | 'user'
  | 'end'
  | 'logout'
  | 'requestPairingCode'
  | 'sendMessage'
  | 'sendPresenceUpdate'
  | 'readMessages'
  | 'onWhatsApp'
  | 'groupCreate'
  | 'groupMetadata'
  | 'groupUpdateSubject'
  | 'groupParticipantsUpdate'
  | 'groupLeave'
  | 'updateMediaMessage'
> & {
  /** Baileys' store of `@lid` ↔ phone mappings: only the lookup the adapter makes. */
  readonly signalRepository: {
    readonly lidMapping: Pick<WASocket['signalRepository']['lidMapping'], 'getPNForLID'>;
  };
};

/** Opens a socket: Baileys' `makeWASocket`, or a fake in tests. */
export type BaileysSocketFactory = (config: UserFacingSocketConfig) => BaileysSocket;

/**
 * Fetches and decrypts the media of a received message: Baileys' `downloadMediaMessage`, or the
 * fake's store in tests.
 */
export type BaileysMediaDownloader = (
  message: WAMessage,
  context: { socket: BaileysSocket; logger: BaileysLogger },
) => Promise<Uint8Array>;
