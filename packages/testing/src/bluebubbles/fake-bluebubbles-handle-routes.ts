import { type Body, badRequest, notFound, ok, param, type Query } from './fake-bluebubbles-http';
import { serializeHandle } from './fake-bluebubbles-model';
import type { FakeRoute, FakeRouteHost } from './fake-bluebubbles-routes';

/**
 * Registers the `/handle/...` routes.
 *
 * The handle resource of the fake BlueBubbles: iMessage and FaceTime availability, query, focus
 * status (upstream's handleRouter).
 */
export function registerHandleRoutes(route: FakeRoute, host: FakeRouteHost): void {
  for (const service of ['imessage', 'facetime'] as const) {
    route('GET', `/handle/availability/${service}`, async (request) => {
      const address = (request.query as Query).address;
      if (!address) throw badRequest('An address is required!');
      host.requirePrivateApi(`Failed to check ${service} availability`);
      const available =
        !host.notOnIMessage.has(address) &&
        (service === 'imessage' || !host.noFaceTime.has(address));
      return ok('Successfully determined availability!', { available });
    });
  }
  route('POST', '/handle/query', async (request) => {
    const body = (request.body ?? {}) as Body;
    const offset = typeof body.offset === 'number' ? body.offset : 0;
    const limit = typeof body.limit === 'number' ? body.limit : 100;
    // handleValidator.ts: `limit: numeric|min:1|max:1000`.
    if (limit < 1 || limit > 1000) throw badRequest('The limit may not be greater than 1000.');
    const all = [...host.handles.entries()].map(([address, row]) => serializeHandle(address, row));
    return {
      status: 200,
      message: 'Success',
      data: all.slice(offset, offset + limit),
      metadata: { total: all.length, offset, limit, count: Math.min(limit, all.length - offset) },
    };
  });
  route('GET', '/handle/:guid/focus', async (request) => {
    const address = param(request, 'guid');
    if (!host.handles.has(address)) throw notFound('Handle not found!');
    host.requirePrivateApi('Failed to get focus status');
    return ok('Success', { status: host.focused.has(address) ? 'silenced' : 'none' });
  });
}
