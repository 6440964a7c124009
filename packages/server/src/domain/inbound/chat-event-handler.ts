import type { EventType } from '@switchboard/contract';
import type { ProviderChatEvent } from '@switchboard/provider-kit';
import { newCorrelationId } from '../../ids';
import type { InboundHandler } from '../../providers/provider-hub';
import type { ConversationPatch } from '../../store/conversation-repository';
import type { SenderNumberView } from '../../store/number-repository';
import type { ReadyConversation } from '../chats/chat-views';
import { conversationForInbound } from '../chats/inbound-conversation';
import { isSameParticipant, participantOf, phoneOfJid } from '../chats/participant-address';
import { type InboundDeps, receiverOf } from './inbound-deps';

/**
 * Applies a contact's change to a group (member added or gone, renamed, new photo, a member's
 * role) to the stored chat and emits the matching `chat.*` event (a role change has none: it is
 * stored only). A chat seen for the first time is stored; when the member who left is the
 * instance itself, the chat is left.
 */
export function chatEventHandler(deps: InboundDeps): InboundHandler<'chat.event'> {
  return async (event, context) => {
    if (event.channel === 'sms') return;
    const channel = event.channel;
    const number = await receiverOf(deps, context, event, event.to);
    if (!number) return;
    const at = new Date(deps.clock.now());
    const actor = phoneOfJid(event.actor) ?? event.actor;
    await deps.store.transaction(async (tx) => {
      const chat = await conversationForInbound(tx, {
        customerId: number.customerId,
        instanceId: context.instanceId,
        channel,
        chatId: event.chatId,
        isGroup: true,
        ownerAddress: number.phoneNumber,
        members: [participantOf(channel, event.actor)],
        at,
      });
      await tx.conversations.update(number.customerId, chat.id, {
        ...changeOf(chat, event, number),
        updatedAt: at,
      });
      const base = {
        externalMessageId: event.externalId,
        chatId: event.chatId,
        conversationId: chat.id,
        actor,
        to: number.phoneNumber,
        channel,
      };
      const correlationId = newCorrelationId();
      const customerId = number.customerId;
      switch (event.action) {
        case 'participant.added':
        case 'participant.left':
          await deps.events.record(tx, {
            customerId,
            correlationId,
            type: `chat.${event.action}` satisfies EventType,
            data: { ...base, participant: participantOf(channel, event.participant).handle },
          });
          break;
        case 'title.changed':
          await deps.events.record(tx, {
            customerId,
            correlationId,
            type: 'chat.title.changed',
            data: { ...base, title: event.title },
          });
          break;
        case 'photo.changed':
          await deps.events.record(tx, {
            customerId,
            correlationId,
            type: 'chat.photo.changed',
            data: base,
          });
          break;
        case 'participant.role_changed':
          // Stored (GET /v1/chats shows the member's `admin`); the spec has no event for it.
          break;
      }
    });
  };
}

/** How the stored chat changes. */
function changeOf(
  chat: ReadyConversation,
  event: ProviderChatEvent,
  number: SenderNumberView,
): ConversationPatch {
  switch (event.action) {
    case 'participant.added': {
      const member = participantOf(chat.channel, event.participant);
      if (chat.participants.some((known) => known.handle === member.handle)) return {};
      return { participants: [...chat.participants, member] };
    }
    case 'participant.left': {
      const isInstance = [number.phoneNumber, number.email].includes(
        phoneOfJid(event.participant) ?? event.participant,
      );
      if (isInstance) return { leftAt: new Date(event.occurredAt) };
      return {
        participants: chat.participants.filter(
          (member) => !isSameParticipant(member, event.participant),
        ),
      };
    }
    case 'title.changed':
      return { name: event.title };
    case 'photo.changed':
      return {};
    case 'participant.role_changed': {
      const member = participantOf(chat.channel, event.participant);
      const known = chat.participants.some((p) => isSameParticipant(p, event.participant));
      const participants = known
        ? chat.participants.map((p) =>
            isSameParticipant(p, event.participant) ? { ...p, admin: event.role } : p,
          )
        : [...chat.participants, { ...member, admin: event.role }];
      return { participants };
    }
  }
}
