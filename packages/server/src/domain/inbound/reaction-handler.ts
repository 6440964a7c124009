import type { MessageReactionData } from '@switchboard/contract';
import { newCorrelationId } from '../../events/event-service';
import type { InboundHandler } from '../../provider-runtime/provider-hub';
import type { ProviderReactionEvent } from '../../providers/provider-events';
import type { TapbackType } from '../../providers/provider-reaction';
import { phoneOfJid } from '../chats/participant-address';
import { type InboundDeps, receiverOf } from './inbound-deps';

/** The verb iMessage uses to describe each tapback ("Loved “…”"). */
const TAPBACK_VERBS: Readonly<Record<TapbackType, string>> = {
  love: 'Loved',
  like: 'Liked',
  dislike: 'Disliked',
  laugh: 'Laughed at',
  emphasize: 'Emphasized',
  question: 'Questioned',
};

/**
 * Emits `message.reaction` for a contact's reaction: `targetMessageId` is the customer's message
 * the provider id names (null when unknown, or another customer's), `type` is `remove` when the
 * reaction was taken back, and `content` describes it the way iMessage does.
 */
export function reactionHandler(deps: InboundDeps): InboundHandler<'message.reaction'> {
  return async (event, context) => {
    const number = await receiverOf(deps, context, event.to, event.kind);
    if (!number || event.channel === 'sms') return;
    const channel = event.channel;
    await deps.store.transaction(async (tx) => {
      const target = await tx.messages.findByExternalId(context.instanceId, event.targetExternalId);
      const owned = target?.customerId === number.customerId && target.deletedAt === null;
      await deps.events.record(tx, {
        customerId: number.customerId,
        type: 'message.reaction',
        correlationId: newCorrelationId(),
        messageId: owned ? target.id : null,
        data: {
          reaction: reactionOf(event, owned ? target.text : undefined, owned ? target.id : null),
          from: phoneOfJid(event.from) ?? event.from,
          to: number.phoneNumber,
          channel,
        },
      });
    });
  };
}

function reactionOf(
  event: ProviderReactionEvent,
  targetText: string | undefined,
  targetMessageId: string | null,
): MessageReactionData['reaction'] {
  const target = targetText === undefined || targetText === '' ? 'a message' : `“${targetText}”`;
  const common = { targetMessageId, targetExternalId: event.targetExternalId };
  if (event.removed) {
    return { type: 'remove', ...common, content: `Removed a reaction from ${target}` };
  }
  if (event.reaction.type === 'emoji') {
    return { type: 'emoji', emoji: event.reaction.emoji, ...common, content: null };
  }
  return {
    type: event.reaction.type,
    ...common,
    content: `${TAPBACK_VERBS[event.reaction.type]} ${target}`,
  };
}
