import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  Switchboard,
  SwitchboardError,
} from '../../src/index';
import { clientFor } from '../support/customers';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

let server: SwitchboardServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startServer({ numbers: ['+14155550100'] });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(() => server.close());

/** The error a call rejects with. */
async function failureOf(call: PromiseLike<unknown>): Promise<SwitchboardError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof SwitchboardError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** Sends to `to` and waits until the simulator delivered (or delivered and read) the message. */
async function deliveredTo(to: string): Promise<string> {
  const { id } = await client.messages.send({ to, content: { text: 'Dinner at 8?' } });
  await expect
    .poll(async () => (await client.messages.get(id)).status)
    .toSatisfy((status) => status === 'delivered' || status === 'read');
  return id;
}

describe('typed errors from the real server', () => {
  it('400 BadRequestError with the spec code', async () => {
    const invalid = await failureOf(
      client.messages.send({ to: '+1 415 555', content: { text: 'Hi' } }),
    );
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect(invalid.status).toBe(400);
    expect(invalid.code).toBe('INVALID_PHONE_NUMBER');
    expect(invalid.requestId).toMatch(/^req_/);

    // DD 40–49: unreachable on every channel.
    const unreachable = await failureOf(
      client.messages.send({ to: '+12125550145', content: { text: 'Hi' } }),
    );
    expect(unreachable).toBeInstanceOf(BadRequestError);
    expect(unreachable.code).toBe('NO_CHANNEL_AVAILABLE');

    const notScheduled = await failureOf(
      client.messages.cancelSchedule(await deliveredTo('+12125550106')),
    );
    expect(notScheduled.code).toBe('NOT_SCHEDULED');
  });

  it('401 AuthenticationError for an unknown key, with the request id', async () => {
    const stranger = new Switchboard({ apiKey: 'sk_not_a_key', baseUrl: server.baseUrl });
    const error = await failureOf(stranger.numbers.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.requestId).toMatch(/^req_/);
    expect(stranger.lastRequestId).toBe(error.requestId);
  });

  it('403 PermissionDeniedError for a sender address that is not yours', async () => {
    const error = await failureOf(
      client.messages.send({ to: '+12125550104', from: '+12025550188', content: { text: 'Hi' } }),
    );
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error.code).toBe('ADDRESS_NOT_AUTHORIZED');

    const notOwned = await failureOf(client.whatsapp.enable('+12025550188'));
    expect(notOwned).toBeInstanceOf(PermissionDeniedError);
    expect(notOwned.code).toBe('NUMBER_NOT_OWNED');
  });

  it('404 NotFoundError for an unknown message, webhook and chat', async () => {
    const message = await failureOf(
      client.messages.get('msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e'),
    );
    expect(message).toBeInstanceOf(NotFoundError);
    expect(message.code).toBe('NOT_FOUND');

    const webhook = await failureOf(client.webhooks.get('0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f'));
    expect(webhook).toBeInstanceOf(NotFoundError);
    expect(webhook.code).toBe('WEBHOOK_NOT_FOUND');

    const chat = await failureOf(client.chats.get('iMessage;+;chat000000000000000000'));
    expect(chat).toBeInstanceOf(NotFoundError);
    expect(chat.code).toBe('CONVERSATION_NOT_FOUND');
  });

  it('409 ConflictError for a message deleted twice', async () => {
    const id = await deliveredTo('+12125550107');
    await client.messages.delete(id);
    const error = await failureOf(client.messages.delete(id));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe('ALREADY_DELETED');
  });

  it('5xx InternalServerError for edits the provider fails (502) or times out on (504)', async () => {
    const strict = new Switchboard({
      apiKey: server.apiKey,
      baseUrl: server.baseUrl,
      maxRetries: 0,
    });
    // DD 70–74: edits fail.
    const failed = await failureOf(
      strict.messages.edit(await deliveredTo('+12125550172'), { text: 'Fixed' }),
    );
    expect(failed).toBeInstanceOf(InternalServerError);
    expect(failed.status).toBe(502);
    expect(failed.code).toBe('EDIT_FAILED');

    // DD 75–79: edits time out.
    const timedOut = await failureOf(
      strict.messages.edit(await deliveredTo('+12125550177'), { text: 'Fixed' }),
    );
    expect(timedOut).toBeInstanceOf(InternalServerError);
    expect(timedOut.status).toBe(504);
    expect(timedOut.code).toBe('PROVIDER_TIMEOUT');
  });

  it('retries a 5xx on a request that is safe to repeat, then throws', async () => {
    const waits: number[] = [];
    const retrying = new Switchboard({
      apiKey: server.apiKey,
      baseUrl: server.baseUrl,
      maxRetries: 2,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const id = await deliveredTo('+12125550173');
    const error = await failureOf(retrying.messages.edit(id, { text: 'Fixed' }));
    expect(error.code).toBe('EDIT_FAILED');
    // An edit is a PUT: two retries after the first attempt, with a growing backoff.
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThan(waits[0] ?? 0);
  });
});
