import type {
  MessagingProvider,
  ProviderChat,
  ProviderChatRequest,
  ProviderCreateGroupRequest,
  ProviderEditRequest,
  ProviderParticipant,
  ProviderParticipantRequest,
  ProviderReactRequest,
  ProviderRenameGroupRequest,
  ProviderTypingRequest,
  ProviderUnsendRequest,
} from '@switchboard/provider-kit';
import { requireCapability } from '@switchboard/provider-kit';

/** Every optional operation of the provider port, each reached as the gateway reaches it. */
export interface ProviderOperations {
  /** `capabilities.edits.edit`. */
  edit(request: ProviderEditRequest): Promise<void>;
  /** `capabilities.unsend.unsend`. */
  unsend(request: ProviderUnsendRequest): Promise<void>;
  /** `capabilities.reactions.react`. */
  react(request: ProviderReactRequest): Promise<void>;
  /** `capabilities.typing.typing`. */
  typing(request: ProviderTypingRequest): Promise<void>;
  /** `capabilities.readState.markRead`. */
  markRead(request: ProviderChatRequest): Promise<void>;
  /** `capabilities.readState.markUnread`. */
  markUnread(request: ProviderChatRequest): Promise<void>;
  /** `capabilities.chats.getChat`. */
  getChat(request: ProviderChatRequest): Promise<ProviderChat | null>;
  /** `capabilities.groups.createGroup`. */
  createGroup(request: ProviderCreateGroupRequest): Promise<ProviderChat>;
  /** `capabilities.groups.renameGroup`. */
  renameGroup(request: ProviderRenameGroupRequest): Promise<void>;
  /** `capabilities.groups.addParticipant`. */
  addParticipant(request: ProviderParticipantRequest): Promise<ProviderParticipant>;
  /** `capabilities.groups.removeParticipant`. */
  removeParticipant(request: ProviderParticipantRequest): Promise<void>;
  /** `capabilities.groups.leaveGroup`. */
  leaveGroup(request: ProviderChatRequest): Promise<void>;
}

/**
 * The optional operations of `provider`, each looked up with the gateway's own
 * `requireCapability` on the request's channel: a capability the provider lacks on that channel
 * rejects with `CHANNEL_NOT_SUPPORTED`, exactly as the gateway answers it.
 * @example await expect(providerOperations(twilio).react(request)).rejects.toMatchObject({ code: 'CHANNEL_NOT_SUPPORTED' });
 */
export function providerOperations(provider: MessagingProvider): ProviderOperations {
  const on = async <T>(run: () => Promise<T>): Promise<T> => run();
  return {
    edit: (r) => on(() => requireCapability(provider, 'edits', r.channel).edit(r)),
    unsend: (r) => on(() => requireCapability(provider, 'unsend', r.channel).unsend(r)),
    react: (r) => on(() => requireCapability(provider, 'reactions', r.channel).react(r)),
    typing: (r) => on(() => requireCapability(provider, 'typing', r.channel).typing(r)),
    markRead: (r) => on(() => requireCapability(provider, 'readState', r.channel).markRead(r)),
    markUnread: (r) => on(() => requireCapability(provider, 'readState', r.channel).markUnread(r)),
    getChat: (r) => on(() => requireCapability(provider, 'chats', r.channel).getChat(r)),
    createGroup: (r) => on(() => requireCapability(provider, 'groups', r.channel).createGroup(r)),
    renameGroup: (r) => on(() => requireCapability(provider, 'groups', r.channel).renameGroup(r)),
    addParticipant: (r) =>
      on(() => requireCapability(provider, 'groups', r.channel).addParticipant(r)),
    removeParticipant: (r) =>
      on(() => requireCapability(provider, 'groups', r.channel).removeParticipant(r)),
    leaveGroup: (r) => on(() => requireCapability(provider, 'groups', r.channel).leaveGroup(r)),
  };
}
