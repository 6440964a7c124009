import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, loopbackOrigin, type TestApp } from './support/test-app';

/** Writes `request` raw to the server and answers everything it sent back before closing. */
function rawExchange(origin: string, request: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(request);
  });
}

/** The status code and the JSON body of a raw HTTP answer. */
function parse(answer: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    headers: head.toLowerCase(),
    body: JSON.parse(body),
  };
}

describe('requests refused by Node’s HTTP parser, before Fastify', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('answer 431 HEADERS_TOO_LARGE in the envelope for an over-long query string', async () => {
    t = await buildTestApp();
    const origin = await loopbackOrigin(t.app);
    const answer = parse(
      await rawExchange(origin, `GET /health?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
    );
    expect(answer.status).toBe(431);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.body).toEqual({
      success: false,
      error: { code: 'HEADERS_TOO_LARGE', message: expect.stringContaining('16 KiB') },
      requestId: expect.stringMatching(/^req_/),
    });
  });

  it('answer 431 for over-long headers, and 400 VALIDATION_ERROR for a malformed request', async () => {
    t = await buildTestApp();
    const origin = await loopbackOrigin(t.app);
    const headers = parse(
      await rawExchange(
        origin,
        `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      ),
    );
    expect(headers.status).toBe(431);
    const malformed = parse(await rawExchange(origin, 'NOT A REQUEST\r\n\r\n'));
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('Malformed HTTP request'),
      },
      requestId: expect.stringMatching(/^req_/),
    });
    // The server still answers well-formed requests afterwards.
    expect((await fetch(`${origin}/health`)).status).toBe(200);
  });
});
