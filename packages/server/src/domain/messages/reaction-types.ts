import {
  KNOWN_REACTION_TYPES,
  type KnownReactionType,
  type TapbackType,
  WHATSAPP_TAPBACK_EMOJI,
} from '@switchboard/contract';
import { isSingleEmoji, type ProviderReaction } from '@switchboard/provider-kit';

/** The channels that have reactions (on sms a reaction is a text message). */
export type ReactionChannel = 'imessage' | 'whatsapp';

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
function isKnownReactionType(type: string): type is KnownReactionType {
  return (KNOWN_REACTION_TYPES as readonly string[]).includes(type);
}

/**
 * A reaction as a message on `channel` carries it: the tapback type on imessage, its emoji on
 * whatsapp (the spec's table), and an emoji as itself.
 */
export function appliedReaction(reaction: ProviderReaction, channel: ReactionChannel): string {
  if (reaction.type === 'emoji') return reaction.emoji;
  return channel === 'whatsapp' ? WHATSAPP_TAPBACK_EMOJI[reaction.type] : reaction.type;
}

/**
 * Reads a reaction type for a message on `channel`: the twelve tapback values everywhere; on
 * whatsapp any other string as an emoji; on imessage a single emoji (an emoji tapback, which the
 * sending instance may still refuse with CHANNEL_NOT_SUPPORTED on an older macOS); null otherwise.
 */
export function parseReaction(type: string, channel: ReactionChannel): ParsedReaction | null {
  if (isKnownReactionType(type)) {
    const remove = type.startsWith('-');
    const reaction = { type: (remove ? type.slice(1) : type) as TapbackType };
    return { reaction, remove, applied: remove ? type : appliedReaction(reaction, channel) };
  }
  if (channel !== 'whatsapp' && !isSingleEmoji(type)) return null;
  return { reaction: { type: 'emoji', emoji: type }, remove: false, applied: type };
}
