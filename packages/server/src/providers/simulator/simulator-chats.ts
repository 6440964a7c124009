import type { Channel } from '@switchboard/contract';
import type {
  ProviderChat,
  ProviderCreateGroupRequest,
  ProviderParticipant,
  ProviderParticipantRequest,
} from '@switchboard/provider-kit';
import { ProviderError } from '@switchboard/provider-kit';
import { directChatAddress, isGroupChatId, toParticipant } from './simulated-addresses';
import { newGroupChatId } from './simulated-ids';

/**
 * The simulator's group chats, in memory. The gateway's store is the source of truth for chats:
 * after a restart the simulator has forgotten its groups, so operations on a chat it does not know
 * succeed as if it did.
 */
export class SimulatorChats {
  readonly #groups = new Map<string, ProviderChat>();

  /** Creates a group with the request's members. */
  create(request: ProviderCreateGroupRequest): ProviderChat {
    if (request.participants.length === 0) {
      throw new ProviderError('VALIDATION_ERROR', 'A group needs at least one participant');
    }
    const name = request.name?.trim();
    if (request.channel === 'whatsapp' && !name) {
      throw new ProviderError('NAME_REQUIRED', 'A WhatsApp group needs a name');
    }
    const chat: ProviderChat = {
      chatId: newGroupChatId(request.channel),
      channel: request.channel,
      isGroup: true,
      participants: uniqueParticipants(
        request.participants.map((address) => toParticipant(request.channel, address)),
      ),
      ...(name ? { name } : {}),
    };
    this.#groups.set(chat.chatId, chat);
    return structuredClone(chat);
  }

  /** A group the simulator created, or a direct chat derived from its id; null otherwise. */
  get(channel: Channel, chatId: string): ProviderChat | null {
    const group = this.#groups.get(chatId);
    if (group) return group.channel === channel ? structuredClone(group) : null;
    if (isGroupChatId(chatId)) return null;
    const address = directChatAddress(chatId);
    if (address === null) return null;
    return {
      chatId,
      channel,
      isGroup: false,
      participants: [toParticipant(channel, address)],
    };
  }

  /** Renames a group. */
  rename(chatId: string, name: string): void {
    const group = this.#groups.get(chatId);
    if (!group) return;
    group.name = name;
  }

  /** Adds a member; answers it as the upstream normalizes it. */
  add(request: ProviderParticipantRequest): ProviderParticipant {
    const participant = toParticipant(request.channel, request.participant);
    const group = this.#groups.get(request.chatId);
    if (group) group.participants = uniqueParticipants([...group.participants, participant]);
    return participant;
  }

  /** Removes a member, matched by address, phone JID or `@lid` handle. */
  remove(request: ProviderParticipantRequest): void {
    const group = this.#groups.get(request.chatId);
    if (!group) return;
    const handle = toParticipant(request.channel, request.participant).handle;
    group.participants = group.participants.filter((member) => member.handle !== handle);
  }

  /** Forgets a group the instance left. */
  leave(chatId: string): void {
    this.#groups.delete(chatId);
  }

  /** A member known by `lid` turned out to be `jid`: every group now shows the phone JID. */
  resolveLid(lid: string, jid: string): void {
    for (const group of this.#groups.values()) {
      group.participants = group.participants.map((member) =>
        member.handle === lid ? { ...member, handle: jid, isPhoneResolved: true } : member,
      );
    }
  }
}

function uniqueParticipants(participants: ProviderParticipant[]): ProviderParticipant[] {
  const seen = new Map<string, ProviderParticipant>();
  for (const participant of participants) seen.set(participant.handle, participant);
  return [...seen.values()];
}
