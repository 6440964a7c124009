import { connect, createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildMessagingApp, type MessagingApp } from '../messages/messaging-fixture';
import {
  createTestDatabase,
  TEST_ENCRYPTION_KEY,
  TEST_POSTGRES_URL,
} from '../support/postgres-database';
import { bodyOf } from '../support/test-app';

/**
 * A loopback TCP relay to the test PostgreSQL server that can be cut (every connection dropped,
 * new ones refused, as when the server goes down) and restored on the same port.
 */
class PostgresRelay {
  readonly #target = new URL(TEST_POSTGRES_URL);
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  port = 0;

  async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.#target.port || 5432), this.#target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    const address = server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.#server = server;
  }

  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

type Failure = { error: { code: string; message: string } };

function send(app: MessagingApp, text: string) {
  return app.send({ to: '+14155550123', content: { text } });
}

describe('PostgreSQL outage', () => {
  it('answers 503 SERVICE_UNAVAILABLE while the database is unreachable, writes nothing half, and recovers', async () => {
    const database = await createTestDatabase();
    onTestFinished(() => database.drop());
    const relay = new PostgresRelay();
    await relay.listen();
    onTestFinished(() => relay.cut());
    const url = new URL(database.url);
    url.port = String(relay.port);
    const app = await buildMessagingApp({
      env: { DATABASE_URL: url.toString(), SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY },
    });

    const before = await app.sendOk({ to: '+14155550123', content: { text: 'before' } });
    await app.waitForStatus(before, 'delivered');

    await relay.cut();
    const refused = await send(app, 'during');
    expect(refused.statusCode, refused.body).toBe(503);
    const { error } = bodyOf<Failure>(refused);
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.message).toMatch(/refuses connections|connection to its server failed/);
    expect(refused.headers['retry-after']).toBe('5');
    const health = await app.app.inject({ method: 'GET', url: '/health' });
    expect(bodyOf<{ checks: { database: string } }>(health).checks.database).not.toBe('ok');

    await relay.listen();
    const after = await app.sendOk({ to: '+14155550123', content: { text: 'after' } });
    await app.waitForStatus(after, 'delivered');
    // The refused send left nothing behind: exactly the two accepted messages exist.
    const listed = bodyOf<{ data: { messages: Array<{ id: string }> } }>(
      await app.request('GET', '/v1/messages?limit=100'),
    ).data.messages;
    expect(listed.map((message) => message.id).sort()).toEqual([before, after].sort());
  });
});
