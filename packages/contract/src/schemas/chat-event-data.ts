import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { ChatChannel } from './chat';
import { Uuid } from './common';
import { eventAddress } from './event-fields';

const chatEventShape = {
  externalMessageId: doc(z.string().nullable(), {
    description: 'Provider GUID of the group event; null when the provider gives none.',
  }),
  chatId: doc(z.string(), { example: 'iMessage;+;chat493027156834' }),
  conversationId: doc(Uuid.optional(), {
    description: 'The chat’s persisted id, when it has one.',
  }),
  actor: eventAddress(
    'Who acted: the contact, or your instance address when the change came through the API.',
    '+14155550123',
  ),
  to: eventAddress('The instance number.', '+14155550100'),
  channel: ChatChannel,
};

/** Data of `chat.photo.changed`, and the fields every chat event has. */
export const ChatEventData = component('ChatEventData', z.object(chatEventShape), {
  description: 'A change to a group chat (the new photo itself is not included).',
});
/** Data of `chat.photo.changed`. */
export type ChatEventData = z.infer<typeof ChatEventData>;

/** Data of `chat.participant.added` and `chat.participant.left`. */
export const ChatParticipantEventData = component(
  'ChatParticipantEventData',
  z.object({
    ...chatEventShape,
    participant: eventAddress(
      'The member added or gone: phone or account on imessage, JID on whatsapp.',
      '+14155550124',
    ),
  }),
  { description: 'A member joined or left a group chat.' },
);
/** Data of the participant chat events. */
export type ChatParticipantEventData = z.infer<typeof ChatParticipantEventData>;

/** Data of `chat.title.changed`. */
export const ChatTitleChangedData = component(
  'ChatTitleChangedData',
  z.object({ ...chatEventShape, title: doc(z.string(), { example: 'Launch crew' }) }),
  { description: 'A group chat was renamed.' },
);
/** Data of `chat.title.changed`. */
export type ChatTitleChangedData = z.infer<typeof ChatTitleChangedData>;
