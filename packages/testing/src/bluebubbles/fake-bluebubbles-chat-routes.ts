import { type Body, badRequest, notFound, ok, param } from './fake-bluebubbles-http';
import type { FakeRoute, FakeRouteHost } from './fake-bluebubbles-routes';

/**
 * Registers the `/chat/...` routes.
 *
 * The chat resource of the fake BlueBubbles: new chats, renames, participants, leave, typing, read
 * state (upstream's chatRouter).
 */
export function registerChatRoutes(route: FakeRoute, host: FakeRouteHost): void {
  route('POST', '/chat/new', async (request) => host.newChat(request.body as Body));
  route('GET', '/chat/:guid', async (request) => {
    const chat = host.chats.get(param(request, 'guid'));
    if (!chat) throw notFound('Chat does not exist!');
    return ok('Successfully fetched chat!', host.serializeChat(chat, true));
  });
  route('PUT', '/chat/:guid', async (request) => {
    const chat = host.groupChat(param(request, 'guid'));
    host.requirePrivateApi('Failed to rename chat');
    const displayName = (request.body as Body | undefined)?.displayName;
    if (typeof displayName !== 'string') throw badRequest('A displayName is required!');
    chat.displayName = displayName;
    host.ownGroupAction(chat, { itemType: 2, groupTitle: displayName }, 'group-name-change');
    return ok('Successfully updated chat!', host.serializeChat(chat, true));
  });
  for (const [method, path, add] of [
    ['POST', '/chat/:guid/participant', true],
    ['POST', '/chat/:guid/participant/add', true],
    ['DELETE', '/chat/:guid/participant', false],
    ['POST', '/chat/:guid/participant/remove', false],
  ] as const) {
    route(method, path, async (request) =>
      host.participant(param(request, 'guid'), (request.body ?? {}) as Body, add),
    );
  }
  route('POST', '/chat/:guid/leave', async (request) => {
    const chat = host.groupChat(param(request, 'guid'));
    host.requirePrivateApi('Failed to leave chat');
    chat.joined = false;
    return ok('Successfully left chat!', null);
  });
  for (const [method, on] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    route(method, '/chat/:guid/typing', async (request) => {
      host.privateApiMiddleware();
      const chat = host.chat(param(request, 'guid'));
      // Upstream's stop route calls startTyping (chatRouter.ts:330-333): both start typing.
      host.typing.set(chat.guid, true);
      return ok(on ? 'Successfully started typing!' : 'Successfully stopped typing!', null);
    });
  }
  for (const read of [true, false]) {
    route('POST', `/chat/:guid/${read ? 'read' : 'unread'}`, async (request) => {
      host.privateApiMiddleware();
      const chat = host.chat(param(request, 'guid'));
      chat.read = read;
      // chatInterface.ts:455-472: both post the new read state.
      host.post('chat-read-status-changed', { chatGuid: chat.guid, read });
      return ok(`Successfully marked chat as ${read ? 'read' : 'unread'}!`, null);
    });
  }
}
