import type { KnownReactionType } from '@switchboard/contract';

/** A tapback: the six iMessage reactions, also the names of WhatsApp's mapped emoji. */
export type TapbackType = Exclude<KnownReactionType, `-${string}`>;

/**
 * A reaction as providers send and receive it: a tapback, or (WhatsApp, newer iMessage) any emoji.
 * Removal is a separate flag, so an adapter knows which tapback to take back (`-love` on
 * BlueBubbles, an empty reaction text on Baileys).
 */
export type ProviderReaction = { type: TapbackType } | { type: 'emoji'; emoji: string };
