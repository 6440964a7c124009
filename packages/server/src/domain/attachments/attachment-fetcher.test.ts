import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AttachmentFetchError, fetchAttachment } from './attachment-fetcher';

// The upstream is undici's own mock dispatcher (no network): what is under test is the fetcher's
// redirect handling, each hop checked by the URL-safety policy before it is requested.
let agent: MockAgent;

function upstream(): MockAgent {
  agent = new MockAgent();
  agent.disableNetConnect();
  return agent;
}

afterEach(async () => {
  await agent.close();
});

const options = (dispatcher: MockAgent) => ({
  dispatcher,
  allowPrivate: false,
  maxBytes: 1024,
  timeoutMs: 2_000,
});

describe('fetchAttachment', () => {
  it('follows a redirect to a public host, sending credentials only to the first origin', async () => {
    const mock = upstream();
    mock
      .get('https://files.example.com')
      .intercept({ path: '/a', headers: { authorization: 'Basic x' } })
      .reply(302, '', { headers: { location: 'https://cdn.example.net/b' } });
    mock
      .get('https://cdn.example.net')
      .intercept({ path: '/b' })
      .reply(200, 'bytes', { headers: { 'content-type': 'image/png; q=1' } });
    const file = await fetchAttachment(
      'https://files.example.com/a',
      { authorization: 'Basic x' },
      options(mock),
    );
    expect(Buffer.from(file.data).toString()).toBe('bytes');
    expect(file.contentType).toBe('image/png');
  });

  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'http://cdn.example.net/b',
    'https://[::ffff:127.0.0.1]/',
    'https://2130706433/',
    'https://metadata.google.internal/',
  ])('refuses a redirect to %s before requesting it', async (location) => {
    const mock = upstream();
    mock
      .get('https://files.example.com')
      .intercept({ path: '/a' })
      .reply(302, '', { headers: { location } });
    const failure = fetchAttachment('https://files.example.com/a', {}, options(mock));
    await expect(failure).rejects.toBeInstanceOf(AttachmentFetchError);
    await expect(failure).rejects.toThrow(/the file URL was refused/);
    // Every interceptor was used: nothing else was requested (disableNetConnect would throw).
    mock.assertNoPendingInterceptors();
  });

  it('gives up after five redirects', async () => {
    const mock = upstream();
    mock
      .get('https://files.example.com')
      .intercept({ path: '/loop' })
      .reply(302, '', { headers: { location: '/loop' } })
      .persist();
    await expect(
      fetchAttachment('https://files.example.com/loop', {}, options(mock)),
    ).rejects.toThrow(/too many redirects/);
  });
});
