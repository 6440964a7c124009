import { createServer } from 'node:net';

/**
 * A loopback port free right now, for a server whose public URL must be known before it listens
 * (an upstream fake calls and signs that URL).
 */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no free loopback port');
  return address.port;
}
