import type { ProviderReaction } from '@switchboard/provider-kit';
import type { Repositories } from '../../store/store';
import { appliedReaction, type ReactionChannel } from './reaction-types';

/** One sender's reaction being added to, or taken back from, a message. */
export interface ReactionChange {
  /** The message reacted to. */
  messageId: string;
  /** Its customer. */
  customerId: string;
  /** Who reacts: the sending instance's address, or a contact's. */
  sender: string;
  /** The message's channel. */
  channel: ReactionChannel;
  /** The reaction (for a removal, the one taken back). */
  reaction: ProviderReaction;
  /** True when the reaction is taken back. */
  remove: boolean;
  /** When it happened. */
  at: Date;
}

/**
 * Records a reaction change, whoever made it: one reaction per message per sender, a new one
 * replacing the old. WhatsApp keeps one reaction per sender, so any removal clears it; an iMessage
 * tapback is only taken back by its own removal.
 */
export async function recordReaction(repos: Repositories, change: ReactionChange): Promise<void> {
  const reaction = appliedReaction(change.reaction, change.channel);
  if (!change.remove) {
    await repos.messageReactions.set({
      messageId: change.messageId,
      sender: change.sender,
      customerId: change.customerId,
      reaction,
      createdAt: change.at,
    });
    return;
  }
  const current = await repos.messageReactions.find(change.messageId, change.sender);
  if (current && (change.channel === 'whatsapp' || current.reaction === reaction)) {
    await repos.messageReactions.remove(change.messageId, change.sender);
  }
}
