import { newCorrelationId } from '../../ids';
import type { InboundHandler } from '../../providers/provider-hub';
import { type InboundDeps, receiverOf } from './inbound-deps';

/** Emits `message.audio_kept` when a contact keeps a voice note the customer sent (imessage). */
export function audioKeptHandler(deps: InboundDeps): InboundHandler<'message.audio_kept'> {
  return async (event, context) => {
    const number = await receiverOf(deps, context, event, event.to);
    if (!number) return;
    await deps.store.transaction(async (tx) => {
      const target = await tx.messages.findByExternalId(context.instanceId, event.targetExternalId);
      const owned = target?.customerId === number.customerId && target.deletedAt === null;
      await deps.events.record(tx, {
        customerId: number.customerId,
        type: 'message.audio_kept',
        correlationId: newCorrelationId(),
        messageId: owned ? target.id : null,
        data: {
          externalMessageId: event.externalId,
          targetMessageId: owned ? target.id : null,
          targetExternalId: event.targetExternalId,
          from: event.from,
          to: number.phoneNumber,
          channel: 'imessage',
        },
      });
    });
  };
}
