import { describe, expect, it } from 'vitest';
import { assertSafeUrl, classifyAddress, isPublicAddress, UnsafeUrlError } from './url-guard';

function rejection(url: string, allowPrivate = false): UnsafeUrlError {
  try {
    assertSafeUrl(url, { allowPrivate });
  } catch (error) {
    if (error instanceof UnsafeUrlError) return error;
    throw error;
  }
  throw new Error(`expected ${url} to be rejected`);
}

describe('assertSafeUrl', () => {
  // [url, expected reason]
  const forbidden: Array<[string, UnsafeUrlError['reason']]> = [
    // scheme and shape
    ['http://hooks.example.com/webhook', 'scheme_not_allowed'],
    ['ftp://hooks.example.com/webhook', 'scheme_not_allowed'],
    ['file:///etc/passwd', 'scheme_not_allowed'],
    ['gopher://hooks.example.com/', 'scheme_not_allowed'],
    ['javascript:alert(1)', 'scheme_not_allowed'],
    ['not a url', 'invalid_url'],
    ['/relative/path', 'invalid_url'],
    ['https://', 'invalid_url'],
    // userinfo tricks
    ['https://good.com@127.0.0.1/', 'credentials_not_allowed'],
    ['https://user:pass@hooks.example.com/', 'credentials_not_allowed'],
    ['https://127.0.0.1:443@hooks.example.com/', 'credentials_not_allowed'],
    // loopback in every spelling
    ['https://127.0.0.1/', 'non_public_address'],
    ['https://127.0.0.1./', 'non_public_address'],
    ['https://127.1/', 'non_public_address'],
    ['https://127.000.000.001/', 'non_public_address'],
    ['https://2130706433/', 'non_public_address'],
    ['https://0177.0.0.1/', 'non_public_address'],
    ['https://017700000001/', 'non_public_address'],
    ['https://0x7f.1/', 'non_public_address'],
    ['https://0x7f000001/', 'non_public_address'],
    ['https://１２７.０.０.１/', 'non_public_address'],
    ['https://[::1]/', 'non_public_address'],
    ['https://[0:0:0:0:0:0:0:1]/', 'non_public_address'],
    ['https://[::ffff:127.0.0.1]/', 'non_public_address'],
    ['https://[::ffff:7f00:1]/', 'non_public_address'],
    ['https://[0:0:0:0:0:ffff:127.0.0.1]/', 'non_public_address'],
    ['https://[::127.0.0.1]/', 'non_public_address'],
    ['https://localhost/', 'blocked_hostname'],
    ['https://LOCALHOST./', 'blocked_hostname'],
    ['https://api.localhost/', 'blocked_hostname'],
    ['https://ⓛocalhost/', 'blocked_hostname'],
    ['https://%6c%6f%63alhost/', 'blocked_hostname'],
    // unspecified, broadcast, multicast, reserved
    ['https://0.0.0.0/', 'non_public_address'],
    ['https://0/', 'non_public_address'],
    ['https://[::]/', 'non_public_address'],
    ['https://255.255.255.255/', 'non_public_address'],
    ['https://224.0.0.1/', 'non_public_address'],
    ['https://[ff02::1]/', 'non_public_address'],
    ['https://240.0.0.1/', 'non_public_address'],
    ['https://192.0.2.10/', 'non_public_address'],
    ['https://[2001:db8::1]/', 'non_public_address'],
    // private networks
    ['https://10.0.0.1/', 'non_public_address'],
    ['https://10.255.255.255/', 'non_public_address'],
    ['https://172.16.0.1/', 'non_public_address'],
    ['https://172.31.255.254/', 'non_public_address'],
    ['https://192.168.1.1/', 'non_public_address'],
    ['https://0xc0a80101/', 'non_public_address'],
    ['https://[::ffff:10.0.0.1]/', 'non_public_address'],
    ['https://[::ffff:c0a8:101]/', 'non_public_address'],
    // link-local, carrier-grade NAT, unique-local
    ['https://169.254.1.1/', 'non_public_address'],
    ['https://[fe80::1]/', 'non_public_address'],
    ['https://100.64.0.1/', 'non_public_address'],
    ['https://100.127.255.254/', 'non_public_address'],
    ['https://[fc00::1]/', 'non_public_address'],
    ['https://[fd12:3456:789a::1]/', 'non_public_address'],
    // NAT64 and 6to4 wrapping a private IPv4
    ['https://[64:ff9b::7f00:1]/', 'non_public_address'],
    ['https://[64:ff9b::10.0.0.1]/', 'non_public_address'],
    ['https://[64:ff9b:1::1]/', 'non_public_address'],
    ['https://[2002:7f00:1::]/', 'non_public_address'],
    ['https://[2002:c0a8:101::1]/', 'non_public_address'],
    ['https://[2001::1]/', 'non_public_address'],
    // cloud metadata
    ['https://169.254.169.254/latest/meta-data/', 'non_public_address'],
    ['https://2852039166/latest/meta-data/', 'non_public_address'],
    ['https://[::ffff:169.254.169.254]/', 'non_public_address'],
    ['https://[fd00:ec2::254]/', 'non_public_address'],
    ['https://100.100.100.200/', 'non_public_address'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'blocked_hostname'],
    ['https://metadata.google.internal./computeMetadata/v1/', 'blocked_hostname'],
    ['https://metadata.goog/', 'blocked_hostname'],
    ['https://metadata/', 'blocked_hostname'],
    ['https://instance-data/', 'blocked_hostname'],
    // internal-only names
    ['https://printer.local/', 'blocked_hostname'],
    ['https://db.internal/', 'blocked_hostname'],
    ['https://router.home.arpa/', 'blocked_hostname'],
    ['https://intranet/', 'blocked_hostname'],
  ];

  it.each(forbidden)('rejects %s (%s)', (url, reason) => {
    expect(rejection(url).reason).toBe(reason);
  });

  it('has a table of at least 30 forbidden URLs', () => {
    expect(forbidden.length).toBeGreaterThanOrEqual(30);
  });

  it('explains the rejection in its message', () => {
    expect(rejection('https://[::ffff:127.0.0.1]/').message).toBe(
      'url must not point to a loopback (IPv4-mapped) address ([::ffff:7f00:1])',
    );
    expect(rejection('https://169.254.169.254/').message).toContain('cloud metadata');
    expect(rejection('http://hooks.example.com/').message).toBe('url must use https');
    expect(rejection('https://api.localhost/').message).toContain('api.localhost');
  });

  const allowed = [
    'https://hooks.example.com/switchboard',
    'https://hooks.example.com:8443/a/b?x=1#frag',
    'https://HOOKS.Example.COM./path',
    'https://93.184.216.34/webhook',
    'https://[2606:4700:4700::1111]/webhook',
    'https://[64:ff9b::808:808]/webhook',
    'https://[::ffff:8.8.8.8]/webhook',
    'https://xn--bcher-kva.example/hook',
    'https://172.32.0.1/',
    'https://100.128.0.1/',
  ];

  it.each(allowed)('accepts %s', (url) => {
    expect(assertSafeUrl(url, { allowPrivate: false })).toBeInstanceOf(URL);
  });

  it('returns the URL normalized by the WHATWG parser', () => {
    expect(
      assertSafeUrl('https://HOOKS.example.com:443/a/../b', { allowPrivate: false }).href,
    ).toBe('https://hooks.example.com/b');
  });

  describe('with allowPrivate', () => {
    it.each([
      'http://127.0.0.1:8080/hook',
      'http://localhost:3000/hook',
      'https://10.0.0.5/hook',
      'http://[::1]:9000/',
    ])('accepts %s', (url) => {
      expect(assertSafeUrl(url, { allowPrivate: true })).toBeInstanceOf(URL);
    });

    it.each([
      ['ftp://127.0.0.1/', 'scheme_not_allowed'],
      ['http://user:pw@127.0.0.1/', 'credentials_not_allowed'],
      ['nope', 'invalid_url'],
    ] as const)('still rejects %s', (url, reason) => {
      expect(rejection(url, true).reason).toBe(reason);
    });
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::808:808', true],
    ['127.0.0.1', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['10.1.2.3', false],
    ['172.16.5.4', false],
    ['192.168.0.1', false],
    ['169.254.169.254', false],
    ['100.64.1.1', false],
    ['fe80::1%eth0', false],
    ['fd00:ec2::254', false],
    ['0.0.0.0', false],
    ['::', false],
    ['64:ff9b::a00:1', false],
    ['not-an-ip', false],
    ['', false],
    // Legacy spellings are not IP literals a resolver returns: refused rather than reinterpreted.
    ['0x7f.1', false],
  ])('isPublicAddress(%j) is %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });

  it('names the range', () => {
    expect(classifyAddress('100.64.0.1')).toEqual({ isPublic: false, range: 'carrier-grade NAT' });
    expect(classifyAddress('[fd00:ec2::254]')).toEqual({
      isPublic: false,
      range: 'cloud metadata',
    });
    expect(classifyAddress('2002:a00:1::')).toEqual({ isPublic: false, range: 'private (6to4)' });
  });
});
