import type {
  Message,
  MessageStatus,
  SendMessageInput,
  SwitchboardEvent,
} from '@switchboard/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { assignNumber, createCustomerWithNumber, createInstance } from '../support/admin-helpers';
import { buildSimulatorTestApp, recordedEvents } from '../support/simulator-app';
import { bearer, bodyOf, type TestApp, type TestAppOptions } from '../support/test-app';
import { waitFor as waitUntil } from '../support/wait-for';

/** The default sender number of the fixture's customer. */
export const SENDER = '+14155550100';
/** A second sender number of the fixture's customer. */
export const SECOND_SENDER = '+14155550101';

/** Statuses a message does not leave by itself. */
export const FINAL_STATUSES: readonly MessageStatus[] = [
  'delivered',
  'read',
  'failed',
  'unsent',
  'cancelled',
];

/** A messaging test app: a simulator instance, a customer with a key and two numbers. */
export interface MessagingApp extends TestApp {
  /** The customer's API key. */
  key: string;
  /** The customer's id. */
  customerId: string;
  /** The simulator instance's id. */
  instanceId: string;
  /** Every event recorded for the customer, in order (from the in-process bus). */
  events: SwitchboardEvent[];
  /** `POST /v1/messages` with the customer's key. */
  send(
    body: SendMessageInput | Record<string, unknown>,
    key?: string,
  ): Promise<LightMyRequestResponse>;
  /** Sends and expects 202; answers the new message id. */
  sendOk(body: SendMessageInput | Record<string, unknown>): Promise<string>;
  /** Any request with the customer's key. */
  request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    key?: string,
  ): Promise<LightMyRequestResponse>;
  /** `GET /v1/messages/:id`, expecting 200. */
  get(id: string): Promise<Message>;
  /** Polls the message until `done` holds (real time, short intervals). */
  waitFor(id: string, done: (message: Message) => boolean, timeoutMs?: number): Promise<Message>;
  /** Polls until the message reaches one of `statuses`. */
  waitForStatus(id: string, ...statuses: MessageStatus[]): Promise<Message>;
  /** The types of the events about one message, in order. */
  eventTypes(id: string): string[];
}

/**
 * Builds a messaging test app on a fresh SQLite file: simulator steps of `SIMULATOR_STEP_MS`
 * (0 by default), a simulator instance, and a customer with `+14155550100` (default) and
 * `+14155550101`.
 */
export async function buildMessagingApp(options: TestAppOptions = {}): Promise<MessagingApp> {
  const testApp = await buildSimulatorTestApp(options);
  const { app } = testApp;
  const instance = await createInstance(app);
  const { customerId, key } = await createCustomerWithNumber(app, 'Acme', SENDER, instance.id);
  await assignNumber(app, customerId, { phoneNumber: SECOND_SENDER, instanceId: instance.id });
  const events = recordedEvents(app, customerId);
  return withHelpers(testApp, { key, customerId, instanceId: instance.id, events });
}

/** Adds the request helpers to an app whose customer is known. */
export function withHelpers(
  testApp: TestApp,
  facts: { key: string; customerId: string; instanceId: string; events: SwitchboardEvent[] },
): MessagingApp {
  const { app } = testApp;
  const request = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    key = facts.key,
  ) => app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const get = async (id: string) => {
    const response = await request('GET', `/v1/messages/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return bodyOf<{ data: Message }>(response).data;
  };
  const published = (id: string) =>
    facts.events.filter(
      (event) => 'data' in event && (event.data as { messageId?: string }).messageId === id,
    );
  // A status is committed with its event, but the event is published once the commit is
  // acknowledged: on PostgreSQL another connection can read the status first. Waiting for the
  // events the log holds to be published keeps `eventTypes` in step with what `get` saw.
  // (Only events logged after `facts.events` began to listen: a reopened app never hears older ones.)
  const logged = () =>
    testApp.app.store.events.listAfter(
      facts.customerId,
      { createdAt: new Date(0), id: '' },
      10_000,
    );
  const before = logged().then((events) => new Set(events.map((event) => event.id)));
  const eventsCaughtUp = async (id: string) => {
    const [earlier, now] = await Promise.all([before, logged()]);
    const seen = new Set(published(id).map((event) => ('id' in event ? event.id : '')));
    return now.every(
      (event) => event.messageId !== id || earlier.has(event.id) || seen.has(event.id),
    );
  };
  const waitFor = async (id: string, done: (message: Message) => boolean, timeoutMs = 15_000) => {
    let last: Message | undefined;
    const reached = await waitUntil(
      async () => {
        last = await get(id);
        return done(last) && last;
      },
      timeoutMs,
      () => `message ${id} to get there: ${JSON.stringify(last)}`,
    );
    await waitUntil(() => eventsCaughtUp(id), timeoutMs, `the events of message ${id}`);
    return reached;
  };
  return {
    ...testApp,
    ...facts,
    send: (body, key) => request('POST', '/v1/messages', body, key),
    sendOk: async (body) => {
      const response = await request('POST', '/v1/messages', body);
      expect(response.statusCode, response.body).toBe(202);
      return bodyOf<{ data: { id: string } }>(response).data.id;
    },
    request,
    get,
    waitFor,
    waitForStatus: (id, ...statuses) => waitFor(id, (message) => statuses.includes(message.status)),
    eventTypes: (id) => published(id).map((event) => event.type),
  };
}

/** The statuses of a message's timeline, with their channels. */
export function timelineOf(message: Message): string[] {
  return message.timeline.map((entry) => `${entry.status}:${entry.channel ?? '-'}`);
}

/** The error code of a failure response. */
export function errorCodeOf(response: LightMyRequestResponse): string | undefined {
  return bodyOf<{ error?: { code: string } }>(response).error?.code;
}

/** A customer of `app` with its own key and default number `phoneNumber` on `instanceId`. */
export function otherCustomer(
  app: FastifyInstance,
  instanceId: string,
  phoneNumber: string,
): Promise<{ key: string; customerId: string }> {
  return createCustomerWithNumber(app, 'Other', phoneNumber, instanceId);
}

/**
 * Opens another app on the database of `previous` (same customer, key and instance), as a restart
 * or a second server process would. `previous` must have been built with an explicit `dir`.
 */
export async function reopenMessagingApp(
  previous: MessagingApp,
  options: Omit<TestAppOptions, 'dir'> = {},
): Promise<MessagingApp> {
  const testApp = await buildSimulatorTestApp({ ...options, dir: previous.dir });
  return withHelpers(testApp, {
    key: previous.key,
    customerId: previous.customerId,
    instanceId: previous.instanceId,
    events: recordedEvents(testApp.app, previous.customerId),
  });
}
