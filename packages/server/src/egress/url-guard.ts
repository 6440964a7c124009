import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a URL was refused; stable values a caller can branch on. */
export type UnsafeUrlReason =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'credentials_not_allowed'
  | 'non_public_address'
  | 'blocked_hostname';

/** Thrown when a URL must not be stored or fetched; the server answers it with 400 VALIDATION_ERROR. */
export class UnsafeUrlError extends Error {
  override readonly name = 'UnsafeUrlError';

  constructor(
    /** The machine-readable reason. */
    readonly reason: UnsafeUrlReason,
    message: string,
  ) {
    super(message);
  }
}

/** Options of {@link assertSafeUrl}. */
export interface UrlGuardOptions {
  /**
   * Allow `http:` and non-public hosts (loopback, private networks, `localhost`), for development
   * and tests (`WEBHOOK_ALLOW_PRIVATE_URLS=true`). Never enable it on an internet-facing instance.
   */
  allowPrivate: boolean;
}

/** How an IP address was classified: whether it is publicly routable, and which range it is in. */
export interface AddressClassification {
  isPublic: boolean;
  /** Human-readable range name, e.g. `loopback`, `private`, `cloud metadata`, `public`. */
  range: string;
}

// Metadata services answer on link-local, unique-local or CGNAT addresses that the range checks
// already refuse; naming them gives the operator a clearer error message.
const CLOUD_METADATA_ADDRESSES = new Set(
  [
    '169.254.169.254', // AWS, GCP, Azure, DigitalOcean, OpenStack…
    '169.254.170.2', // AWS ECS task metadata
    '100.100.100.200', // Alibaba Cloud
    '192.0.0.192', // Oracle Cloud
    'fd00:ec2::254', // AWS IMDS over IPv6
  ].map((ip) => ipaddr.parse(ip).toNormalizedString()),
);

const RANGE_LABELS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
  as112: 'AS112 (reserved)',
  as112v6: 'AS112 (reserved)',
  amt: 'AMT (reserved)',
  benchmarking: 'benchmarking (reserved)',
  uniqueLocal: 'unique-local',
  teredo: 'Teredo tunnel',
  orchid2: 'ORCHID (reserved)',
  droneRemoteIdProtocolEntityTags: 'reserved',
  rfc6052: 'local-use NAT64',
};

// IPv4-mapped (::ffff:0:0/96) and IPv4-translated (::ffff:0:0:0/96) addresses reach the embedded
// IPv4 address; NAT64 (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16) route to it.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

function ipv4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function classifyParsed(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClassification {
  if (CLOUD_METADATA_ADDRESSES.has(address.toNormalizedString())) {
    return { isPublic: false, range: 'cloud metadata' };
  }
  if (address.kind() === 'ipv4') {
    const range = (address as ipaddr.IPv4).range();
    return range === 'unicast'
      ? { isPublic: true, range: 'public' }
      : { isPublic: false, range: RANGE_LABELS[range] ?? range };
  }
  const v6 = address as ipaddr.IPv6;
  const parts = v6.parts;
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || v6.match(NAT64_WELL_KNOWN)) {
    return classifyEmbedded(ipv4FromParts(parts[6] ?? 0, parts[7] ?? 0), range);
  }
  if (range === '6to4') {
    return classifyEmbedded(ipv4FromParts(parts[1] ?? 0, parts[2] ?? 0), range);
  }
  // Only global unicast (2000::/3) is reachable on the internet; this also refuses the deprecated
  // IPv4-compatible form (::127.0.0.1), which ipaddr.js reports as plain unicast.
  if (range === 'unicast' && v6.match(GLOBAL_UNICAST_V6)) {
    return { isPublic: true, range: 'public' };
  }
  return {
    isPublic: false,
    range: RANGE_LABELS[range] ?? (range === 'unicast' ? 'non-global' : range),
  };
}

function classifyEmbedded(embedded: ipaddr.IPv4, via: string): AddressClassification {
  const inner = classifyParsed(embedded);
  const wrapper = via === '6to4' ? '6to4' : via === 'rfc6052' ? 'NAT64' : 'IPv4-mapped';
  return inner.isPublic ? inner : { isPublic: false, range: `${inner.range} (${wrapper})` };
}

function parseStrictIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  // Strict syntax first: ipaddr.js also accepts legacy spellings such as "0x7f.1", which are
  // never what a resolver returns and which the URL parser has already normalized.
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const withoutZone = bare.split('%')[0] ?? bare;
  if (!isIPv4(bare) && !isIPv6(withoutZone)) return null;
  try {
    return ipaddr.parse(bare);
  } catch {
    return null;
  }
}

/**
 * Classifies an IP address literal (IPv4, IPv6, or bracketed IPv6); anything that is not an IP
 * literal is reported as not public.
 */
export function classifyAddress(ip: string): AddressClassification {
  const parsed = parseStrictIp(ip);
  return parsed === null ? { isPublic: false, range: 'not an IP address' } : classifyParsed(parsed);
}

/**
 * Whether an IP address is publicly routable: not loopback, private, link-local, carrier-grade
 * NAT, unspecified, broadcast, multicast, reserved, unique-local or cloud metadata, also when
 * written as IPv4-mapped IPv6, NAT64 or 6to4.
 *
 * @example isPublicAddress('::ffff:127.0.0.1') // false
 */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip).isPublic;
}

// Names that never resolve to a public receiver: RFC 6761 special-use names, the private-use
// `.internal` TLD (which also holds metadata.google.internal), mDNS `.local`, and common
// internal-only suffixes that exist only on private resolvers.
const BLOCKED_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'localdomain',
  'home.arpa',
  'lan',
  'intranet',
  'corp',
  'test',
  'invalid',
];

const BLOCKED_HOSTNAMES = new Set(['metadata.goog', 'metadata.google.internal', 'instance-data']);

function blockedHostnameReason(hostname: string): string | null {
  if (BLOCKED_HOSTNAMES.has(hostname) || hostname.endsWith('.metadata.goog')) {
    return `${hostname} is a cloud metadata host`;
  }
  for (const suffix of BLOCKED_SUFFIXES) {
    if (hostname === suffix || hostname.endsWith(`.${suffix}`)) {
      return `${hostname} is a local or internal-only name (.${suffix})`;
    }
  }
  // A single-label name ("intranet", "metadata") is completed by the resolver's search domains
  // and lands inside the operator's network.
  if (!hostname.includes('.')) {
    return `${hostname} is not a fully qualified domain name`;
  }
  return null;
}

/**
 * Validates a URL the server will later POST to or fetch, and returns it normalized by the WHATWG
 * parser (store and use that `href`, so the host checked is the host connected to). The check is
 * syntactic: names are resolved and their addresses checked again at connect time by the safe
 * dispatcher, which is what defeats DNS rebinding.
 *
 * @throws {UnsafeUrlError} when the URL is malformed, not https (unless `allowPrivate`), carries
 * credentials, or names a non-public address or an internal-only host in any spelling.
 * @example assertSafeUrl('https://hooks.example.com/switchboard', { allowPrivate: false })
 */
export function assertSafeUrl(url: string | URL, options: UrlGuardOptions): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.toString());
  } catch {
    throw new UnsafeUrlError('invalid_url', 'url must be an absolute URL');
  }

  const allowedSchemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!allowedSchemes.includes(parsed.protocol)) {
    throw new UnsafeUrlError(
      'scheme_not_allowed',
      options.allowPrivate ? 'url must use https or http' : 'url must use https',
    );
  }

  // userinfo is where "https://trusted.example@127.0.0.1" tricks hide; receivers authenticate
  // Switchboard by the signature, so credentials in the URL have no legitimate use.
  if (parsed.username !== '' || parsed.password !== '') {
    throw new UnsafeUrlError(
      'credentials_not_allowed',
      'url must not contain a user name or password',
    );
  }

  // The WHATWG parser keeps trailing dots on names ("localhost."), which resolve like the name.
  const hostname = parsed.hostname.replace(/\.+$/, '');
  if (hostname === '') {
    throw new UnsafeUrlError('invalid_url', 'url must have a host');
  }
  if (options.allowPrivate) return parsed;

  // The parser has already turned decimal, octal, hex and short IPv4 forms into dotted quads
  // and compressed IPv6 literals, so a literal is recognised here in any spelling.
  if (isIPv4(hostname) || hostname.startsWith('[')) {
    const classification = classifyAddress(hostname);
    if (!classification.isPublic) {
      throw new UnsafeUrlError(
        'non_public_address',
        `url must not point to a ${classification.range} address (${hostname})`,
      );
    }
    return parsed;
  }

  const reason = blockedHostnameReason(hostname);
  if (reason !== null) {
    throw new UnsafeUrlError('blocked_hostname', `url host is not allowed: ${reason}`);
  }
  return parsed;
}
