import { type LoopbackReceiver, startLoopbackReceiver } from '@switchboard/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliver } from '../webhooks/delivery-client';
import {
  BlockedAddressError,
  createSafeDispatcher,
  type HostResolver,
  type ResolvedAddress,
  resolvePublicAddresses,
  systemResolver,
} from './safe-dispatcher';
import { assertSafeUrl } from './url-guard';

/** A resolver that gives scripted answers in turn (the last one repeats) and counts its calls. */
function scriptedResolver(...answers: ResolvedAddress[][]): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string) => {
    const answer = answers[Math.min(calls.length, answers.length - 1)] ?? [];
    calls.push(hostname);
    return answer;
  };
  return Object.assign(resolver, { calls });
}

const PUBLIC: ResolvedAddress = { address: '93.184.216.34', family: 4 };
const LOOPBACK: ResolvedAddress = { address: '127.0.0.1', family: 4 };

let receiver: LoopbackReceiver;
const dispatchers: Array<{ close(): Promise<void> }> = [];

function dispatcherWith(options: Parameters<typeof createSafeDispatcher>[0]) {
  const dispatcher = createSafeDispatcher(options);
  dispatchers.push(dispatcher);
  return dispatcher;
}

beforeEach(async () => {
  receiver = await startLoopbackReceiver();
});
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.close()));
  await receiver.close();
});

function post(url: string, dispatcher: ReturnType<typeof createSafeDispatcher>) {
  return deliver({ url, headers: {}, body: '{}', timeoutMs: 2000, dispatcher });
}

describe('createSafeDispatcher', () => {
  it('defeats DNS rebinding: public when checked, loopback at connect time, never reached', async () => {
    const resolver = scriptedResolver([PUBLIC], [LOOPBACK]);
    const url = `http://hooks.example.com:${receiver.port}/hook`;

    // Check time: the URL is acceptable and the name resolves to a public address.
    expect(() =>
      assertSafeUrl(url.replace('http:', 'https:'), { allowPrivate: false }),
    ).not.toThrow();
    await expect(resolvePublicAddresses('hooks.example.com', { resolver })).resolves.toEqual([
      PUBLIC,
    ]);

    // Connect time: the same name now answers 127.0.0.1.
    const outcome = await post(url, dispatcherWith({ resolver }));

    expect(outcome.kind).toBe('retryable');
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toContain(
      'refused to connect to hooks.example.com: it resolved to 127.0.0.1, a loopback address',
    );
    expect(resolver.calls).toEqual(['hooks.example.com', 'hooks.example.com']);
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a name whose answers mix public and private addresses', async () => {
    const resolver = scriptedResolver([PUBLIC, LOOPBACK]);
    const outcome = await post(
      `http://mixed.example.com:${receiver.port}/`,
      dispatcherWith({ resolver }),
    );
    expect(outcome.error).toContain('127.0.0.1');
    expect(receiver.requests).toHaveLength(0);
  });

  it.each(['127.0.0.1', '[::ffff:127.0.0.1]'])(
    'refuses the IP literal %s, which skips DNS',
    async (host) => {
      const resolver = scriptedResolver([PUBLIC]);
      const outcome = await post(`http://${host}:${receiver.port}/`, dispatcherWith({ resolver }));
      expect(outcome.kind).toBe('retryable');
      expect(outcome.error).toContain('refused to connect');
      expect(resolver.calls).toHaveLength(0);
      expect(receiver.requests).toHaveLength(0);
    },
  );

  it('refuses localhost through the system resolver', async () => {
    const outcome = await post(`http://localhost:${receiver.port}/`, dispatcherWith({}));
    expect(outcome.error).toMatch(
      /refused to connect to localhost: it resolved to (127\.0\.0\.1|::1)/,
    );
    expect(receiver.requests).toHaveLength(0);
  });

  it('lets loopback through with allowPrivate, resolving the name at connect time', async () => {
    // Dual-stack answer: net.connect races both (autoSelectFamily); the receiver is on IPv4 only.
    const resolver = scriptedResolver([{ address: '::1', family: 6 }, LOOPBACK]);
    const dispatcher = dispatcherWith({ resolver, allowPrivate: true });

    expect(await post(`http://receiver.test:${receiver.port}/a`, dispatcher)).toMatchObject({
      kind: 'delivered',
      statusCode: 200,
    });
    expect(await post(`${receiver.origin}/b`, dispatcher)).toMatchObject({ kind: 'delivered' });
    expect(resolver.calls).toEqual(['receiver.test']);
    expect(receiver.requests.map((request) => request.path)).toEqual(['/a', '/b']);
  });

  it('does not follow redirects to a forbidden address', async () => {
    const redirecting = await startLoopbackReceiver((_request, response) =>
      response.writeHead(307, { Location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    );
    try {
      const outcome = await post(redirecting.origin, dispatcherWith({ allowPrivate: true }));
      expect(outcome).toMatchObject({ kind: 'retryable', statusCode: 307 });
      expect(redirecting.requests).toHaveLength(1);
    } finally {
      await redirecting.close();
    }
  });
});

describe('resolvePublicAddresses', () => {
  it('returns public answers and checks IP literals without resolving', async () => {
    const resolver = scriptedResolver([PUBLIC]);
    await expect(resolvePublicAddresses('8.8.8.8', { resolver })).resolves.toEqual([
      { address: '8.8.8.8', family: 4 },
    ]);
    await expect(resolvePublicAddresses('[::ffff:8.8.8.8]', { resolver })).resolves.toEqual([
      { address: '::ffff:8.8.8.8', family: 6 },
    ]);
    await expect(resolvePublicAddresses('[::1]', { resolver })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    expect(resolver.calls).toHaveLength(0);
  });

  it('throws a BlockedAddressError naming the address and range', async () => {
    const resolver = scriptedResolver([{ address: '169.254.169.254', family: 4 }]);
    const error = await resolvePublicAddresses('evil.example.com', { resolver }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(error).toMatchObject({
      hostname: 'evil.example.com',
      address: '169.254.169.254',
      range: 'cloud metadata',
      code: 'ERR_BLOCKED_ADDRESS',
    });
  });

  it('fails a name without any address', async () => {
    await expect(
      resolvePublicAddresses('empty.example.com', { resolver: scriptedResolver([]) }),
    ).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });

  it('resolves with the operating system by default', async () => {
    const addresses = await systemResolver('localhost');
    expect(addresses.map((entry) => entry.address)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]),
    );
  });
});
