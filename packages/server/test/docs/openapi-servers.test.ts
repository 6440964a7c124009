import { describe, expect, it } from 'vitest';
import { bodyOf, buildTestApp } from '../support/test-app';

/** The `servers` of the document the server serves at `/openapi.json` under `env`. */
async function servedServers(env: Record<string, string>): Promise<unknown> {
  const t = await buildTestApp({ env });
  const response = await t.app.inject({ url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  return bodyOf<{ servers: unknown }>(response).servers;
}

describe('the server /openapi.json names', () => {
  it('is PUBLIC_BASE_URL when it is set', async () => {
    expect(await servedServers({ PUBLIC_BASE_URL: 'https://gateway.example.com/' })).toEqual([
      { url: 'https://gateway.example.com', description: 'This Switchboard server' },
    ]);
  });

  it("is the server's own host and port otherwise, a wildcard host named as loopback", async () => {
    expect(await servedServers({ HOST: '0.0.0.0', PORT: '3917' })).toEqual([
      { url: 'http://127.0.0.1:3917', description: 'This Switchboard server' },
    ]);
  });
});
