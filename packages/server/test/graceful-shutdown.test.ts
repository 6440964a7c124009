import { existsSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { completion, listeningPort, spawnEntry } from './support/child-process';
import { ADMIN_TOKEN, tempDir } from './support/test-app';

/** A raw connection that records everything the server sends, so a request can be sent in parts. */
function rawConnection(port: number): { socket: Socket; received: () => string } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('utf8');
  });
  socket.on('error', () => undefined);
  return { socket, received: () => received };
}

function startServer(env: Record<string, string> = {}) {
  const databasePath = join(tempDir(), 'switchboard.db');
  const child = spawnEntry('src/main.ts', [], {
    PORT: '0',
    DATABASE_URL: databasePath,
    SWITCHBOARD_ADMIN_TOKEN: ADMIN_TOKEN,
    ...env,
  });
  return { child, databasePath, done: completion(child), port: listeningPort(child) };
}

const BODY = '{"name":"Late but welcome"}';
const REQUEST_HEAD = [
  'POST /admin/v1/customers HTTP/1.1',
  'Host: 127.0.0.1',
  `Authorization: Bearer ${ADMIN_TOKEN}`,
  'Content-Type: application/json',
  `Content-Length: ${BODY.length}`,
  '',
  '',
].join('\r\n');

describe('graceful shutdown', () => {
  it('finishes in-flight requests on SIGTERM, refuses new ones, closes the database and exits 0', async () => {
    const server = startServer();
    const port = await server.port;

    // In flight: the headers are in, the body is still arriving when the signal comes.
    const inFlight = rawConnection(port);
    inFlight.socket.write(REQUEST_HEAD + BODY.slice(0, 10));
    // Not yet a request: its headers are incomplete when the signal comes.
    const late = rawConnection(port);
    late.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await sleep(300);

    server.child.kill('SIGTERM');
    await sleep(300);
    late.socket.write('\r\n');
    await sleep(200);
    inFlight.socket.write(BODY.slice(10));

    const result = await server.done;
    expect(result.code, result.stderr).toBe(0);
    expect(inFlight.received()).toMatch(/^HTTP\/1\.1 201 /);
    expect(inFlight.received()).toContain('"name":"Late but welcome"');
    expect(late.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(late.received()).toContain('"code":"SERVICE_UNAVAILABLE"');
    expect(result.stdout).toContain('shutting down');
    expect(result.stdout).toContain('shutdown complete');
    // Closing the last connection checkpoints the WAL: nothing is left half-written.
    const wal = `${server.databasePath}-wal`;
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
  });

  it('gives up and exits 1 when shutdown takes longer than SHUTDOWN_TIMEOUT_MS', async () => {
    const server = startServer({ SHUTDOWN_TIMEOUT_MS: '300' });
    const port = await server.port;
    const stuck = rawConnection(port);
    stuck.socket.write(REQUEST_HEAD + BODY.slice(0, 10)); // the rest never comes
    await sleep(200);
    server.child.kill('SIGTERM');
    const result = await server.done;
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('shutdown timed out');
    stuck.socket.destroy();
  });
});
