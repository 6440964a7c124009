import { newCorrelationId } from '../../ids';
import type { InboundHandler } from '../../providers/provider-hub';
import { phoneJidOf, phoneOfJid } from '../chats/participant-address';
import { type InboundDeps, receiverOf } from './inbound-deps';

/** E.164, for reading a contact's phone number out of its address. */
const E164 = /^\+\d{2,15}$/;

/**
 * Emits `typing.indicator` when a contact starts or stops typing on whatsapp. The spec emits it on
 * whatsapp only: imessage typing is received and dropped. `chatId` is the group, or the contact's
 * own JID in a 1:1 chat (WhatsApp's chat id for it).
 */
export function typingHandler(deps: InboundDeps): InboundHandler<'typing'> {
  return async (event, context) => {
    if (event.channel !== 'whatsapp') return;
    const number = await receiverOf(deps, context, event, event.to);
    if (!number) return;
    const from = phoneOfJid(event.from) ?? event.from;
    const chatId = event.chatId ?? (E164.test(from) ? phoneJidOf(from) : event.from);
    await deps.store.transaction(async (tx) => {
      await deps.events.record(tx, {
        customerId: number.customerId,
        type: 'typing.indicator',
        correlationId: newCorrelationId(),
        data: { chatId, from, to: number.phoneNumber, channel: 'whatsapp', status: event.status },
      });
    });
  };
}
