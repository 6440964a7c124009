/**
 * The tapback values and their WhatsApp emoji: plain constants without zod, so adapters built as
 * their own bundle (the Baileys package) take them without the schemas.
 */

/** The six tapbacks (iMessage reactions; on whatsapp they map to {@link WHATSAPP_TAPBACK_EMOJI}). */
export const TAPBACK_TYPES = ['love', 'like', 'dislike', 'laugh', 'emphasize', 'question'] as const;
/** A tapback. */
export type TapbackType = (typeof TAPBACK_TYPES)[number];

/** A tapback type or its negative (removing) form. */
export type KnownReactionType = TapbackType | `-${TapbackType}`;
/** The tapback types and their negative (removing) forms. */
export const KNOWN_REACTION_TYPES: readonly KnownReactionType[] = [
  ...TAPBACK_TYPES,
  ...TAPBACK_TYPES.map((type) => `-${type}` as const),
];

/** The emoji each tapback maps to on whatsapp (the spec's table). */
export const WHATSAPP_TAPBACK_EMOJI: Readonly<Record<TapbackType, string>> = {
  love: '❤️',
  like: '👍',
  dislike: '👎',
  laugh: '😂',
  emphasize: '‼️',
  question: '❓',
};
