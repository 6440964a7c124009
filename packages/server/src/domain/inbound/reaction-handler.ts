import type { MessageReactionData } from '@switchboard/contract';
import type { ProviderReactionEvent } from '@switchboard/provider-kit';
import { TAPBACK_VERBS } from '@switchboard/provider-kit';
import { newCorrelationId } from '../../ids';
import type { InboundHandler } from '../../providers/provider-hub';
import { phoneOfJid } from '../chats/participant-address';
import { recordReaction } from '../messages/reaction-state';
import { type InboundDeps, receiverOf } from './inbound-deps';

/**
 * Records a contact's reaction on the customer's message it names (one per message per contact,
 * as for the customer's own reactions) and emits `message.reaction`: `targetMessageId` is that
 * message (null when unknown, or another customer's, and then nothing is stored), `type` is
 * `remove` when the reaction was taken back, and `content` describes it the way iMessage does.
 */
export function reactionHandler(deps: InboundDeps): InboundHandler<'message.reaction'> {
  return async (event, context) => {
    const number = await receiverOf(deps, context, event, event.to);
    if (!number || event.channel === 'sms') return;
    const channel = event.channel;
    const from = phoneOfJid(event.from) ?? event.from;
    await deps.store.transaction(async (tx) => {
      const found = await tx.messages.findByExternalId(context.instanceId, event.targetExternalId);
      const target =
        found?.customerId === number.customerId && found.deletedAt === null ? found : undefined;
      if (target) {
        await recordReaction(tx, {
          messageId: target.id,
          customerId: number.customerId,
          sender: from,
          channel,
          reaction: event.reaction,
          remove: event.removed,
          at: new Date(deps.clock.now()),
        });
      }
      await deps.events.record(tx, {
        customerId: number.customerId,
        type: 'message.reaction',
        correlationId: newCorrelationId(),
        messageId: target?.id ?? null,
        data: {
          reaction: reactionOf(event, target?.text, target?.id ?? null),
          from,
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
