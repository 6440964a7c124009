import type {
  AddParticipantResult,
  Chat,
  CreatedGroup,
  CreateGroupRequest,
  LeaveChatResult,
  MarkChatReadResult,
  MarkChatUnreadResult,
  RemoveParticipantResult,
  RenameChatResult,
  TypingResult,
} from '@switchboard/contract';
import { EMAIL_PATTERN } from '@switchboard/contract';
import {
  type ProviderCapabilities,
  type ProviderCapabilityName,
  type ProviderChat,
  requireCapability,
} from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { EventRecorder } from '../../events/event-recorder';
import { newUuid } from '../../ids';
import type { ProviderHub } from '../../providers/provider-hub';
import type { ConversationRecord } from '../../store/conversation-repository';
import type { UnitOfWork } from '../../store/store';
import { DomainError } from '../domain-error';
import { resolveChatSender } from './chat-sender';
import { type ReadyConversation, toChatView, toCreatedGroupView } from './chat-views';
import { findChat } from './find-chat';
import { imessageParticipant, isSameParticipant } from './participant-address';
import { callProvider } from './provider-call';

/** Dependencies of {@link ChatService}. */
export interface ChatServiceDeps {
  /** The store. */
  store: UnitOfWork;
  /** The running providers. */
  hub: Pick<ProviderHub, 'provider'>;
  /** Where chat events are recorded. */
  events: EventRecorder;
  /** The time source. */
  clock: Clock;
  /** Reports a conversation that could not be persisted after its group was created. */
  onPersistFailure?: (error: unknown, chatId: string) => void;
}

/** Who asks: the customer and the correlation id their events carry. */
export interface ChatCaller {
  /** The customer. */
  customerId: string;
  /** The request's correlation id. */
  correlationId: string;
}

/**
 * The chat endpoints: group creation, rename, participants, leave, read state and typing, on
 * imessage and whatsapp. A chat is pinned to the instance it was created on (or received on);
 * every operation goes to that instance's provider, then the stored chat and its events change
 * in one transaction.
 */
export class ChatService {
  readonly #deps: ChatServiceDeps;

  /** Creates the service. */
  constructor(deps: ChatServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Creates a group from the `from` instance (or the default one for the channel). The
   * conversation is stored before the provider is asked, so a send keyed by it meanwhile answers
   * `CONVERSATION_NOT_READY`; when the provider fails the conversation is removed again.
   */
  async createGroup(caller: ChatCaller, request: CreateGroupRequest): Promise<CreatedGroup> {
    const { store, clock } = this.#deps;
    const { channel } = request;
    if (channel === 'whatsapp' && request.participants.some((p) => EMAIL_PATTERN.test(p))) {
      // The contract already refuses them on whatsapp; kept for callers that bypass it.
      throw new DomainError(
        'VALIDATION_ERROR',
        'participants: whatsapp members must be E.164 numbers',
      );
    }
    const sender = await resolveChatSender(store, caller.customerId, channel, request.from);
    const now = new Date(clock.now());
    const pending: ConversationRecord = {
      id: newUuid(),
      customerId: caller.customerId,
      instanceId: sender.instance.id,
      channel,
      chatId: null,
      ownerAddress: sender.number.phoneNumber,
      isGroup: true,
      name: request.name ?? null,
      participants: [],
      leftAt: null,
      readAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await store.conversations.insert(pending);

    let created: ProviderChat;
    try {
      const provider = await this.#deps.hub.provider(sender.instance.id);
      created = await callProvider(() =>
        requireCapability(provider, 'groups', channel).createGroup({
          channel,
          from: sender.number.phoneNumber,
          participants: request.participants,
          ...(request.name === undefined ? {} : { name: request.name }),
        }),
      );
    } catch (error) {
      await store.conversations.delete(caller.customerId, pending.id);
      throw error;
    }

    const ready: ReadyConversation = {
      ...pending,
      chatId: created.chatId,
      name: created.name ?? pending.name,
      participants: channel === 'whatsapp' ? created.participants : toAddresses(created),
    };
    try {
      await store.conversations.update(caller.customerId, pending.id, {
        chatId: ready.chatId,
        name: ready.name,
        participants: ready.participants,
      });
    } catch (error) {
      // The group exists upstream: answer it, without the conversationId that failed to persist
      // (the spec's "omitted if persistence failed").
      this.#deps.onPersistFailure?.(error, created.chatId);
      const { conversationId: _omitted, ...view } = toCreatedGroupView(ready);
      return withFirstMessage(view, created.firstMessage);
    }
    return withFirstMessage(toCreatedGroupView(ready), created.firstMessage);
  }

  /** The chat, by provider chat id or conversationId. */
  async get(caller: ChatCaller, chatId: string): Promise<Chat> {
    return toChatView(await findChat(this.#deps.store, caller.customerId, chatId));
  }

  /** Renames a group and emits `chat.title.changed`. */
  async rename(caller: ChatCaller, chatId: string, name: string): Promise<RenameChatResult> {
    const chat = await this.#group(caller, chatId, 'renamed');
    await this.#provider(chat, 'groups', (capability) =>
      capability.renameGroup({ ...operation(chat), chatId: chat.chatId, name }),
    );
    await this.#deps.store.transaction(async (tx) => {
      await tx.conversations.update(caller.customerId, chat.id, { name, updatedAt: this.#now() });
      await this.#deps.events.record(tx, {
        customerId: caller.customerId,
        type: 'chat.title.changed',
        correlationId: caller.correlationId,
        data: { ...chatEventBase(chat), title: name },
      });
    });
    return { chatId: chat.chatId, name };
  }

  /**
   * Adds a member and emits `chat.participant.added` with the member as the provider normalized
   * it (a JID on whatsapp). Adding a current member changes nothing and emits nothing.
   */
  async addParticipant(
    caller: ChatCaller,
    chatId: string,
    participant: string,
  ): Promise<AddParticipantResult> {
    const chat = await this.#group(caller, chatId, 'given members');
    if (chat.channel === 'whatsapp' && EMAIL_PATTERN.test(participant)) {
      throw new DomainError(
        'VALIDATION_ERROR',
        'participant: whatsapp members are E.164 phone numbers, not account identifiers',
      );
    }
    if (chat.participants.some((member) => isSameParticipant(member, participant))) {
      return { chatId: chat.chatId, participant };
    }
    const added = await this.#provider(chat, 'groups', (capability) =>
      capability.addParticipant({ ...operation(chat), chatId: chat.chatId, participant }),
    );
    const member = chat.channel === 'whatsapp' ? added : imessageParticipant(participant);
    await this.#deps.store.transaction(async (tx) => {
      const current = (await tx.conversations.findById(caller.customerId, chat.id)) ?? chat;
      await tx.conversations.update(caller.customerId, chat.id, {
        participants: [...current.participants.filter((p) => p.handle !== member.handle), member],
        updatedAt: this.#now(),
      });
      await this.#deps.events.record(tx, {
        customerId: caller.customerId,
        type: 'chat.participant.added',
        correlationId: caller.correlationId,
        data: { ...chatEventBase(chat), participant: member.handle },
      });
    });
    return { chatId: chat.chatId, participant };
  }

  /** Removes a member and emits `chat.participant.left`; a non-member answers 404 `NOT_FOUND`. */
  async removeParticipant(
    caller: ChatCaller,
    chatId: string,
    participant: string,
  ): Promise<RemoveParticipantResult> {
    const chat = await this.#group(caller, chatId, 'given members');
    const member = chat.participants.find((candidate) => isSameParticipant(candidate, participant));
    if (!member) {
      throw new DomainError('NOT_FOUND', `${participant} is not a member of ${chat.chatId}`);
    }
    await this.#provider(chat, 'groups', (capability) =>
      capability.removeParticipant({
        ...operation(chat),
        chatId: chat.chatId,
        participant: member.handle,
      }),
    );
    await this.#deps.store.transaction(async (tx) => {
      const current = (await tx.conversations.findById(caller.customerId, chat.id)) ?? chat;
      await tx.conversations.update(caller.customerId, chat.id, {
        participants: current.participants.filter((p) => p.handle !== member.handle),
        updatedAt: this.#now(),
      });
      await this.#deps.events.record(tx, {
        customerId: caller.customerId,
        type: 'chat.participant.left',
        correlationId: caller.correlationId,
        data: { ...chatEventBase(chat), participant: member.handle },
      });
    });
    return { chatId: chat.chatId, removedParticipant: participant };
  }

  /**
   * The instance leaves the group. The chat is then gone for the customer (404 afterwards, like
   * a deleted resource) until a later inbound message shows the instance was added back.
   */
  async leave(caller: ChatCaller, chatId: string): Promise<LeaveChatResult> {
    const chat = await this.#group(caller, chatId, 'left');
    await this.#provider(chat, 'groups', (capability) =>
      capability.leaveGroup({ ...operation(chat), chatId: chat.chatId }),
    );
    const now = this.#now();
    await this.#deps.store.conversations.update(caller.customerId, chat.id, {
      leftAt: now,
      updatedAt: now,
    });
    return { chatId: chat.chatId, left: true };
  }

  /** Marks the chat read (imessage only). */
  async markRead(caller: ChatCaller, chatId: string): Promise<MarkChatReadResult> {
    const chat = await this.#imessageOnly(caller, chatId, 'read');
    await this.#provider(chat, 'readState', (capability) =>
      capability.markRead({ ...operation(chat), chatId: chat.chatId }),
    );
    return { chatId: chat.chatId, read: true };
  }

  /** Marks the chat unread (imessage only). */
  async markUnread(caller: ChatCaller, chatId: string): Promise<MarkChatUnreadResult> {
    const chat = await this.#imessageOnly(caller, chatId, 'unread');
    await this.#provider(chat, 'readState', (capability) =>
      capability.markUnread({ ...operation(chat), chatId: chat.chatId }),
    );
    return { chatId: chat.chatId, unread: true };
  }

  /** Shows or clears the instance's typing indicator in the chat (both channels). */
  async typing(
    caller: ChatCaller,
    chatId: string,
    status: 'start' | 'stop',
  ): Promise<TypingResult> {
    const chat = await findChat(this.#deps.store, caller.customerId, chatId);
    await this.#provider(chat, 'typing', (capability) =>
      capability.typing({ ...operation(chat), to: { type: 'chat', chatId: chat.chatId }, status }),
    );
    return { chatId: chat.chatId, typing: status === 'start' };
  }

  async #group(caller: ChatCaller, chatId: string, verb: string): Promise<ReadyConversation> {
    const chat = await findChat(this.#deps.store, caller.customerId, chatId);
    if (!chat.isGroup) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `${chat.chatId} is a 1:1 chat; only groups can be ${verb}`,
      );
    }
    return chat;
  }

  async #imessageOnly(
    caller: ChatCaller,
    chatId: string,
    state: string,
  ): Promise<ReadyConversation> {
    const chat = await findChat(this.#deps.store, caller.customerId, chatId);
    if (chat.channel !== 'imessage') {
      throw new DomainError(
        'CHANNEL_NOT_SUPPORTED',
        `Marking a chat ${state} is supported on imessage only, not ${chat.channel}`,
      );
    }
    return chat;
  }

  /**
   * Calls the capability `name` of the chat's provider; an instance without it on the chat's
   * channel answers `CHANNEL_NOT_SUPPORTED`, a provider failure its own code.
   */
  async #provider<K extends ProviderCapabilityName, T>(
    chat: ReadyConversation,
    name: K,
    operation: (capability: NonNullable<ProviderCapabilities[K]>) => Promise<T>,
  ): Promise<T> {
    const provider = await callProvider(() => this.#deps.hub.provider(chat.instanceId));
    return callProvider(async () => operation(requireCapability(provider, name, chat.channel)));
  }

  #now(): Date {
    return new Date(this.#deps.clock.now());
  }
}

/** The channel and acting address of a provider call on `chat`. */
function operation(chat: ReadyConversation) {
  return { channel: chat.channel, from: chat.ownerAddress };
}

/** The fields every chat event made through the API has: the instance is the actor. */
function chatEventBase(chat: ReadyConversation) {
  return {
    externalMessageId: null,
    chatId: chat.chatId,
    conversationId: chat.id,
    actor: chat.ownerAddress,
    to: chat.ownerAddress,
    channel: chat.channel,
  };
}

/** An imessage group's members as plain-address participants. */
function toAddresses(created: { participants: { handle: string }[] }) {
  return created.participants.map((participant) => imessageParticipant(participant.handle));
}

/** The created group, with the first message the upstream sent for it when the caller wrote none. */
function withFirstMessage<T extends object>(view: T, firstMessage: string | undefined): T {
  return firstMessage === undefined ? view : { ...view, firstMessage };
}
