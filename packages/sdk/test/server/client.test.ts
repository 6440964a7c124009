import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Switchboard } from '../../src/index';
import { clientFor } from '../support/customers';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

const SENDER = '+14155550100';
const SECOND_SENDER = '+14155550101';

let server: SwitchboardServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startServer({ numbers: [SENDER, SECOND_SENDER] });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(() => server.close());

describe('the client against the real server', () => {
  it('reads health without an API key', async () => {
    const anonymous = new Switchboard({ baseUrl: server.baseUrl, apiKey: undefined });
    const health = await anonymous.health();
    expect(health.status).toMatch(/^(ok|degraded)$/);
  });

  it('lists the sender numbers, the default first', async () => {
    const numbers = await client.numbers.list();
    expect(numbers.map((n) => n.phoneNumber)).toEqual([SENDER, SECOND_SENDER]);
    expect(numbers[0]?.isDefault).toBe(true);
  });

  it('reads capabilities, cached on the second call', async () => {
    const first = await client.capabilities.get('+12125550104');
    expect(first.recommendedChannel).toBe('imessage');
    expect(first.capabilities).toMatchObject({ imessage: true, sms: true });
    const fallback = await client.capabilities.get('+12125550112');
    expect(fallback.recommendedChannel).toBe('sms');
    const again = await client.capabilities.get('+12125550104');
    expect(again.cached).toBe(true);
  });

  it('exposes the requestId of results and the last response, and sends the correlation id', async () => {
    const correlationId = 'cor_0123456789abcdef0123456789abcdef';
    const { data, requestId, status, headers } = await client.numbers
      .list({ correlationId })
      .withResponse();
    expect(data).toHaveLength(2);
    expect(status).toBe(200);
    expect(requestId).toMatch(/^req_/);
    expect(headers.get('x-correlation-id')).toBe(correlationId);
    expect(headers.get('x-ratelimit-limit')).toBe('10000');
    expect(client.lastRequestId).toBe(requestId);
  });
});
