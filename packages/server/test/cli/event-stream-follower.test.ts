import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freeLoopbackPort } from '@switchboard/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';

/**
 * `listen` and `whatsapp pair` against a scripted server on loopback: one that cuts a character in
 * two between chunks, one that goes silent, one that is not there. The liveness deadline and the
 * reconnect delay are shortened through the CLI environment (no long sleeps).
 */

const servers: Array<{ close(): void; closeAllConnections(): void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

type Handler = (request: IncomingMessage, response: ServerResponse, connection: number) => void;

/** A loopback server answering `/v1/events` with `events` (the n-th connection) and the rest with `other`. */
async function scriptedServer(events: Handler, other?: Handler): Promise<string> {
  let connections = 0;
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/v1/events')) {
      connections += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      events(request, response, connections);
    } else if (other) {
      other(request, response, 0);
    } else {
      response.writeHead(404).end();
    }
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A receiver for `listen --forward-to` that keeps each body's exact bytes. */
async function receiver(): Promise<{ url: string; bodies: Buffer[] }> {
  const bodies: Buffer[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks));
      response.writeHead(200).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies };
}

/** Runs the CLI until `until` matches its output, then stops it. */
async function runUntil(args: string[], url: string, until: RegExp, idleTimeoutMs = 150) {
  const controller = new AbortController();
  let output = '';
  const code = await runCli([...args, '--url', url, '--api-key', 'sk_test'], {
    env: {},
    stdout: {
      write: (text: string) => {
        output += text;
        if (until.test(output)) controller.abort();
      },
    },
    stderr: { write: (text: string) => (output += text) },
    signal: controller.signal,
    eventStream: { idleTimeoutMs, reconnectMs: 20 },
  });
  return { code, output };
}

const EVENT = JSON.stringify({ id: 'evt_1', type: 'message.inbound', data: { text: 'Hi 😀 !' } });

describe('listen follows the event stream', () => {
  it('forwards the exact bytes of an event whose emoji is split across two chunks', async () => {
    const frame = Buffer.from(`id: evt_1\nevent: message.inbound\ndata: ${EVENT}\n\n`);
    const cut = frame.indexOf(Buffer.from('😀')) + 2; // inside the emoji's four bytes
    const url = await scriptedServer((_request, response) => {
      response.write(frame.subarray(0, cut));
      setTimeout(() => response.write(frame.subarray(cut)), 30);
    });
    const { url: forwardTo, bodies } = await receiver();
    const run = await runUntil(['listen', '--forward-to', forwardTo], url, /--> message\.inbound/);
    expect(run.output).toMatch(/--> message\.inbound evt_1 \[200\]/);
    expect(bodies.map((body) => body.toString('hex'))).toEqual([
      Buffer.from(EVENT).toString('hex'),
    ]);
  });

  it('reconnects when the server goes silent (no event, no heartbeat) past the deadline', async () => {
    const url = await scriptedServer((_request, response, connection) => {
      // The first connection stays open and says nothing; the second one delivers.
      if (connection > 1) response.write(`id: evt_1\nevent: message.inbound\ndata: ${EVENT}\n\n`);
    });
    const { url: forwardTo, bodies } = await receiver();
    const run = await runUntil(['listen', '--forward-to', forwardTo], url, /--> message\.inbound/);
    expect(run.output).toContain('! stream dropped (no event or heartbeat for 0.15 s)');
    expect(bodies).toHaveLength(1);
  });

  it('keeps a connection that heartbeats alive', async () => {
    // Heartbeats every 100 ms against a 600 ms deadline (the server's 15 s against 45 s, scaled),
    // for more than two deadlines before the event comes.
    const url = await scriptedServer((_request, response) => {
      const beat = setInterval(() => response.write(': heartbeat\n\n'), 100);
      setTimeout(() => {
        clearInterval(beat);
        response.write(`id: evt_1\nevent: message.inbound\ndata: ${EVENT}\n\n`);
      }, 1_500);
      response.on('close', () => clearInterval(beat));
    });
    const { url: forwardTo } = await receiver();
    const run = await runUntil(
      ['listen', '--forward-to', forwardTo],
      url,
      /--> message\.inbound/,
      600,
    );
    expect(run.output).not.toContain('dropped');
  });
});

describe('whatsapp pair', () => {
  it('says it cannot reach the server, and keeps trying visibly', async () => {
    const url = `http://127.0.0.1:${await freeLoopbackPort()}`;
    const run = await runUntil(
      ['whatsapp', 'pair', '+14155550100'],
      url,
      /(cannot reach[\s\S]*){2}/,
    );
    expect(run.output).toContain(`! cannot reach ${url} (`);
    expect(run.output).toMatch(/retrying in 0\.02 s\n[\s\S]*retrying in 0\.04 s\n/);
  });

  it("prints the session's real status, then follows it to connected", async () => {
    const url = await scriptedServer(
      (_request, response) => {
        setTimeout(() => {
          const data = {
            phoneNumber: '+14155550100',
            status: 'connected',
            jid: '14155550100@s.whatsapp.net',
          };
          response.write(
            `id: evt_1\nevent: whatsapp.status\ndata: ${JSON.stringify({ type: 'whatsapp.status', data })}\n\n`,
          );
        }, 50);
      },
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            success: true,
            data: { phoneNumber: '+14155550100', whatsapp: { status: 'connecting' } },
          }),
        );
      },
    );
    const run = await runUntil(['whatsapp', 'pair', '+14155550100'], url, /Connected/);
    expect(run.output).toContain('+14155550100: connecting\n');
    expect(run.output).toContain('Connected as 14155550100@s.whatsapp.net.');
    expect(run.output).not.toContain('undefined');
  });
});
