import { type Body, notFound, ok, param, type Query, readMultipart } from './fake-bluebubbles-http';
import type { FakeRoute, FakeRouteHost } from './fake-bluebubbles-routes';

/**
 * Registers the `/message/...` routes.
 *
 * The message resource of the fake BlueBubbles: sends, tapbacks, edits, unsends, fetch and query
 * (upstream's messageRouter).
 */
export function registerMessageRoutes(route: FakeRoute, host: FakeRouteHost): void {
  route('POST', '/message/text', async (request, reply) =>
    host.sendText(request.body as Body, reply),
  );
  route('POST', '/message/attachment', async (request, reply) =>
    host.sendAttachment(await readMultipart(request), reply),
  );

  route('POST', '/message/multipart', async (request, reply) =>
    host.sendMultipart(request.body as Body, reply),
  );
  route('POST', '/message/react', async (request) => {
    host.privateApiMiddleware();
    return host.react(request.body as Body);
  });
  route('POST', '/message/:guid/edit', async (request) =>
    host.edit(param(request, 'guid'), request.body as Body),
  );
  route('POST', '/message/:guid/unsend', async (request) =>
    host.unsend(param(request, 'guid'), (request.body ?? {}) as Body),
  );
  route('GET', '/message/:guid', async (request) => {
    const message = host.messages.get(param(request, 'guid'));
    if (!message) throw notFound('Message does not exist!');
    // Chats and attachments only when `with` asks for them (messageRouter.ts:73-110).
    const withs = String((request.query as Query).with ?? '')
      .split(',')
      .map((w) => w.trim());
    const serialized = host.serialize(
      message,
      withs.some((w) => w === 'chats' || w === 'chat'),
    );
    return ok('Successfully fetched message!', {
      ...serialized,
      ...(withs.some((w) => w === 'attachment' || w === 'attachments') ? {} : { attachments: [] }),
      ...(serialized.chats ? {} : { chats: [] }),
    });
  });
  route('POST', '/message/query', async (request) => host.query((request.body ?? {}) as Body));
}
