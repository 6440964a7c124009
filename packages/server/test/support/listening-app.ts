import { freeLoopbackPort } from '@switchboard/testing';
import { buildTestApp, type TestApp } from './test-app';

/**
 * The gateway listening on a real loopback port that is also its `PUBLIC_BASE_URL`, so upstream
 * fakes call (and sign) the address the server believes it has: private URLs allowed, logs at
 * warn, no practical rate limit, plus `env`.
 */
export async function buildListeningApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; origin: string }> {
  const port = await freeLoopbackPort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({
    env: {
      PUBLIC_BASE_URL: origin,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, origin };
}
