import { type Body, badRequest, notFound, ok, param } from './fake-bluebubbles-http';
import { WEBHOOK_EVENT_TYPES } from './fake-bluebubbles-model';
import type { FakeRoute, FakeRouteHost } from './fake-bluebubbles-routes';

/**
 * Registers `GET`, `POST /webhook` and `DELETE /webhook/:id`.
 *
 * The webhook resource of the fake BlueBubbles: list, register and delete (upstream's
 * webhookRouter).
 */
export function registerWebhookRoutes(route: FakeRoute, host: FakeRouteHost): void {
  // The webhook admin routes: bluebubbles-server@f2e2286
  // packages/server/src/server/api/http/api/v1/httpRoutes.ts:666-690 (GET, POST `/webhook`,
  // DELETE `/webhook/:id`) and routers/webhookRouter.ts:11-46 (a deleted or unknown id answers
  // 404 "Webhook does not exist!").
  route('GET', '/webhook', async () =>
    ok(
      'Successfully fetched webhooks!',
      host.webhooks.map((w) => ({ ...w, events: w.events.map((e) => e.value) })),
    ),
  );
  route('POST', '/webhook', async (request) => {
    const body = (request.body ?? {}) as Body;
    const { url, events } = body;
    if (typeof url !== 'string' || !Array.isArray(events)) {
      throw badRequest('The url and events fields are required');
    }
    if (!url.startsWith('http')) throw badRequest('Webhook URL must include an HTTP scheme!');
    const valid: { label: string; value: string }[] = [];
    for (const event of events) {
      if (typeof event !== 'string') throw badRequest('Webhook events must be strings!');
      if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event)) {
        throw badRequest(
          `Invalid webhook event: ${event}! Webhook must be one of: ${WEBHOOK_EVENT_TYPES.join(',')}`,
        );
      }
      valid.push({ label: event, value: event });
    }
    // A URL registered already is answered as it is, not added again (server/index.ts:208-217).
    let webhook = host.webhooks.find((w) => w.url === url);
    if (!webhook) {
      webhook = { id: host.nextWebhookId(), url, events: valid };
      host.webhooks.push(webhook);
    }
    return ok('Successfully created webhook!', {
      id: webhook.id,
      url,
      events: webhook.events.map((e) => e.value),
      created: new Date(host.now()).toISOString(),
    });
  });
  route('DELETE', '/webhook/:id', async (request) => {
    const id = Number(param(request, 'id'));
    const index = host.webhooks.findIndex((w) => w.id === id);
    if (index < 0) throw notFound('Webhook does not exist!');
    host.webhooks.splice(index, 1);
    return ok('Successfully deleted webhook!', null);
  });
}
