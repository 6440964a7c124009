import { KNOWN_REACTION_TYPES, type KnownReactionType } from '@switchboard/contract';
import type { ProviderReaction, TapbackType } from '../../providers/provider-reaction';

/** The emoji each tapback maps to on whatsapp (the spec's table). */
export const WHATSAPP_TAPBACK_EMOJI: Readonly<Record<TapbackType, string>> = {
  love: '❤️',
  like: '👍',
  dislike: '👎',
  laugh: '😂',
  emphasize: '‼️',
  question: '❓',
};

/** A reaction request understood: what to send the provider and what was applied. */
export interface ParsedReaction {
  /** The reaction for the provider. */
  reaction: ProviderReaction;
  /** True for a negative form (`-love`): take the reaction back. */
  remove: boolean;
  /**
   * The reaction as applied, which the answer echoes: the type on imessage, the emoji on whatsapp
   * (a removal echoes its negative form, since no emoji is applied).
   */
  applied: string;
}

/** True when `type` is one of the twelve tapback values. */
export function isKnownReactionType(type: string): type is KnownReactionType {
  return (KNOWN_REACTION_TYPES as readonly string[]).includes(type);
}

/**
 * Reads a reaction type for a message on `channel`: the twelve tapback values everywhere, and on
 * whatsapp any other string as an emoji; null when the channel does not accept it (imessage with
 * an unknown value).
 */
export function parseReaction(
  type: string,
  channel: 'imessage' | 'whatsapp',
): ParsedReaction | null {
  if (isKnownReactionType(type)) {
    const remove = type.startsWith('-');
    const tapback = (remove ? type.slice(1) : type) as TapbackType;
    const applied = channel === 'whatsapp' && !remove ? WHATSAPP_TAPBACK_EMOJI[tapback] : type;
    return { reaction: { type: tapback }, remove, applied };
  }
  if (channel !== 'whatsapp') return null;
  return { reaction: { type: 'emoji', emoji: type }, remove: false, applied: type };
}
