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

/** The `v` flag (Unicode sets), which the compile target does not know yet but Node 20 runs. */
const UNICODE_SETS: string = 'v';
/** One emoji, modifiers and joiners included (Unicode's RGI emoji set). */
const ONE_EMOJI = new RegExp('^\\p{RGI_Emoji}$', UNICODE_SETS);
const AN_EMOJI = new RegExp('\\p{RGI_Emoji}', UNICODE_SETS);

/**
 * True when `text` is exactly one emoji (skin tones, flags and joined sequences count as one).
 * @example isSingleEmoji('👍🏽') // true
 */
export function isSingleEmoji(text: string): boolean {
  return ONE_EMOJI.test(text);
}

/**
 * The first emoji in `text`, or undefined.
 * @example firstEmoji('Reacted 🎉 to “Party?”') // '🎉'
 */
export function firstEmoji(text: string): string | undefined {
  return AN_EMOJI.exec(text)?.[0];
}
