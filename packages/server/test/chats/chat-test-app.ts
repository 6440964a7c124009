import type { CreatedGroup, CreateGroupInput, SwitchboardEvent } from '@switchboard/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { assignNumber, createCustomerWithNumber, createInstance } from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildSimulatorTestApp, recordedEvents } from '../support/simulator-app';
import { bearer, type TestApp, type TestAppOptions } from '../support/test-app';

/** The customer's default number (on the simulator instance `simulator`). */
export const OWN_NUMBER = '+14155550100';
/** The customer's second number, with an iMessage account address. */
export const SECOND_NUMBER = '+14155550101';
/** The iMessage account address of {@link SECOND_NUMBER}. */
export const OWN_EMAIL = 'desk@acme.example';
/** A contact that is on WhatsApp and SMS (simulator row 60–69). */
export const WHATSAPP_CONTACT = '+14155550160';
/** A contact on iMessage that reads messages (simulator row 00–09). */
export const IMESSAGE_CONTACT = '+14155550105';

/** A WhatsApp group of the customer with {@link WHATSAPP_CONTACT}. */
export const WHATSAPP_GROUP: CreateGroupInput = {
  channel: 'whatsapp',
  name: 'Ops',
  participants: [WHATSAPP_CONTACT],
};

/** An HTTP method the helpers send. */
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** A customer of the test app, with its key and request helpers. */
export interface TestCustomer {
  /** The customer's id. */
  customerId: string;
  /** Its API key. */
  key: string;
  /** Every event recorded for it, in order (from the in-process bus). */
  events: SwitchboardEvent[];
  /** Any request with the customer's key. */
  request(method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  /** A request expected to succeed with `status`; answers its `data`. */
  ok<T>(method: Method, url: string, payload?: unknown, status?: number): Promise<T>;
  /** The events of one type, in order. */
  eventsOf<T extends SwitchboardEvent['type']>(type: T): Extract<SwitchboardEvent, { type: T }>[];
}

/** A test app for chats, inbound and WhatsApp: a simulator instance and one customer. */
export interface ChatTestApp extends TestApp {
  /** The simulator instance's id. */
  instanceId: string;
  /** The customer: numbers {@link OWN_NUMBER} (default) and {@link SECOND_NUMBER}. */
  acme: TestCustomer;
  /** Adds another customer with `phoneNumber` as its default number on `instanceId`. */
  addCustomer(name: string, phoneNumber: string, instanceId?: string): Promise<TestCustomer>;
}

/**
 * Builds the app on a fresh database: simulator steps of 0 ms, loopback webhooks allowed, a
 * simulator instance, and customer Acme with two numbers.
 */
export async function buildChatApp(options: TestAppOptions = {}): Promise<ChatTestApp> {
  const testApp = await buildSimulatorTestApp({
    ...options,
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_POLL_INTERVAL_MS: '20', ...options.env },
  });
  const instance = await createInstance(testApp.app);
  const customer = async (name: string, phoneNumber: string, instanceId: string) => {
    const created = await createCustomerWithNumber(testApp.app, name, phoneNumber, instanceId);
    return customerHelpers(testApp, created.customerId, created.key);
  };
  const acme = await customer('Acme', OWN_NUMBER, instance.id);
  await assignNumber(testApp.app, acme.customerId, {
    phoneNumber: SECOND_NUMBER,
    instanceId: instance.id,
    email: OWN_EMAIL,
  });
  return {
    ...testApp,
    instanceId: instance.id,
    acme,
    addCustomer: (name, phoneNumber, instanceId = instance.id) =>
      customer(name, phoneNumber, instanceId),
  };
}

/** Request helpers for a customer of `testApp`. */
export function customerHelpers(testApp: TestApp, customerId: string, key: string): TestCustomer {
  const events = recordedEvents(testApp.app, customerId);
  const request = (method: Method, url: string, payload?: unknown) =>
    testApp.app.inject({
      method,
      url,
      headers: bearer(key),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    customerId,
    key,
    events,
    request,
    ok: async <T>(method: Method, url: string, payload?: unknown, status = 200) =>
      expectSuccess<T>(await request(method, url, payload), status),
    eventsOf: <T extends SwitchboardEvent['type']>(type: T) =>
      events.filter(
        (event): event is Extract<SwitchboardEvent, { type: T }> => event.type === type,
      ),
  };
}

/** `/v1/chats/<encoded chatId><suffix>`. */
export function chatUrl(chatId: string, suffix = ''): string {
  return `/v1/chats/${encodeURIComponent(chatId)}${suffix}`;
}

/** Waits (real time, short polls) until a check passes, then answers its value. */
export { waitFor as eventually } from '../support/wait-for';

/** Asserts a failure with the spec's envelope. */
export { expectFailure };

/** Asserts `value` is defined and narrows it. */
export function defined<T>(value: T | undefined | null, what = 'value'): T {
  expect(value, `${what} should be defined`).toBeDefined();
  expect(value, `${what} should not be null`).not.toBeNull();
  return value as T;
}

/** Creates a group chat for `customer` (`POST /v1/chats/groups`, expecting 201). */
export function createGroup(customer: TestCustomer, body: CreateGroupInput): Promise<CreatedGroup> {
  return customer.ok<CreatedGroup>('POST', '/v1/chats/groups', body, 201);
}
