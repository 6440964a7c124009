import type { InboundHandler } from '../../providers/provider-hub';
import type { MessageEvents } from '../messages/message-events';
import { patchOf } from '../messages/message-record';
import { type InboundDeps, receiverOf } from './inbound-deps';

/**
 * Applies an upstream change of a message (its sender edited or unsent it: a contact, or the
 * instance's own device) and emits `message.edited` (with `previousText`) or `message.unsent`;
 * events about a contact's message carry `direction: "inbound"`. A change already applied, or of
 * a message the gateway never saw, changes nothing.
 */
export function messageChangeHandler(
  deps: InboundDeps & { lifecycle: Pick<MessageEvents, 'lifecycle' | 'edited'> },
): InboundHandler<'message.changed'> {
  return async (event, context) => {
    const number = await receiverOf(deps, context, event, event.to);
    if (!number) return;
    await deps.store.transaction(async (tx) => {
      const message = await tx.messages.findByExternalId(context.instanceId, event.externalId);
      if (!message || message.customerId !== number.customerId || message.deletedAt !== null) {
        return;
      }
      const now = deps.clock.now();
      if (event.change.type === 'edited') {
        if (message.status === 'unsent' || message.text === event.change.text) return;
        const edited = { ...message, text: event.change.text, updatedAt: new Date(now) };
        await tx.messages.update(message.id, patchOf(edited, message));
        await deps.lifecycle.edited(tx, edited, message.correlationId, message.text);
        return;
      }
      if (message.status === 'unsent') return;
      const unsent = {
        ...message,
        status: 'unsent' as const,
        timeline: [
          ...message.timeline,
          { status: 'unsent' as const, at: now, channel: message.channel },
        ],
        updatedAt: new Date(now),
      };
      await tx.messages.update(message.id, patchOf(unsent, message));
      await deps.lifecycle.lifecycle(tx, 'message.unsent', unsent, message.correlationId);
    });
  };
}

/**
 * Records that a chat was marked read (or unread) on the instance's own device. Stored on the
 * chat, not emitted: the spec has no event for it.
 */
export function chatReadHandler(deps: InboundDeps): InboundHandler<'chat.read'> {
  return async (event, context) => {
    const number = await receiverOf(deps, context, event, event.to);
    if (!number) return;
    await deps.store.transaction(async (tx) => {
      const chat = await tx.conversations.findByInstanceChat(
        number.customerId,
        context.instanceId,
        event.chatId,
      );
      if (!chat) return;
      await tx.conversations.update(number.customerId, chat.id, {
        readAt: event.read ? event.occurredAt : null,
        updatedAt: new Date(deps.clock.now()),
      });
    });
  };
}
