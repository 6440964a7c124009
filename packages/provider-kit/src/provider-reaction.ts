import type { TapbackType } from '@switchboard/contract';

export type { TapbackType } from '@switchboard/contract';

/**
 * A reaction as providers send and receive it: a tapback, or (WhatsApp, newer iMessage) any emoji.
 * Removal is a separate flag, so an adapter knows which tapback to take back (`-love` on
 * BlueBubbles, an empty reaction text on Baileys).
 */
export type ProviderReaction = { type: TapbackType } | { type: 'emoji'; emoji: string };

/**
 * The past-tense verb iMessage uses to describe each tapback: in the text an SMS-only phone
 * receives (`Loved “Dinner at 8?”`) and in the `content` of `message.reaction`.
 */
export const TAPBACK_VERBS: Readonly<Record<TapbackType, string>> = {
  love: 'Loved',
  like: 'Liked',
  dislike: 'Disliked',
  laugh: 'Laughed at',
  emphasize: 'Emphasized',
  question: 'Questioned',
};
