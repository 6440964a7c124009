import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '@switchboard/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Switchboard } from '../../src/index';
import { verifyWebhook } from '../../src/webhooks/index';
import { clientFor } from '../support/customers';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

let server: SwitchboardServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startServer({ numbers: ['+14155550100'] });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(() => server.close());

describe('switchboard listen', () => {
  it('forwards the events to a local URL, signed so the SDK verifier accepts them', async () => {
    const verified: Array<{ type: string; messageId?: string }> = [];
    const rejected: string[] = [];
    let secret = '';
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        try {
          const event = await verifyWebhook<{ type: string; data?: { messageId?: string } }>({
            payload: Buffer.concat(chunks),
            headers: request.headers,
            secret,
          });
          verified.push({
            type: event.type,
            ...(event.data?.messageId ? { messageId: event.data.messageId } : {}),
          });
          response.writeHead(200).end();
        } catch (error) {
          rejected.push(String(error));
          response.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const forwardTo = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

    const controller = new AbortController();
    let output = '';
    const ready = new Promise<void>((resolve) => {
      const listening = runCli(
        ['listen', '--forward-to', forwardTo, '--events', 'message.sent,message.delivered'],
        {
          env: { SWITCHBOARD_API_KEY: server.apiKey, SWITCHBOARD_BASE_URL: server.baseUrl },
          stdout: {
            write: (text: string) => {
              output += text;
              const match = /Signing secret: (\S+)/.exec(output);
              if (match?.[1]) secret = match[1];
              if (output.includes('Ready:')) resolve();
            },
          },
          stderr: { write: (text: string) => (output += text) },
          signal: controller.signal,
        },
      );
      void listening;
    });
    await ready;
    const sent = await client.messages.send({
      to: '+12125550110',
      content: { text: 'Forward me' },
    });
    await expect
      .poll(() => verified.filter((event) => event.messageId === sent.id).map((e) => e.type), {
        timeout: 10_000,
      })
      .toEqual(['message.sent', 'message.delivered']);
    controller.abort();
    receiver.close();
    expect(secret).toMatch(/^whsec_/);
    expect(rejected).toEqual([]);
    expect(output).toMatch(/--> message\.sent evt_\S+ \[200\]/);
  });

  it('refuses to start without an API key, naming what it needs', async () => {
    let stderr = '';
    const code = await runCli(['listen', '--forward-to', 'http://127.0.0.1:4242/hooks'], {
      env: {},
      stdout: { write: () => undefined },
      stderr: { write: (text: string) => (stderr += text) },
    });
    expect(code).toBe(1);
    expect(stderr).toContain('SWITCHBOARD_API_KEY');
  });
});
