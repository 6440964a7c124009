import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { classifyAddress } from './url-guard';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; injectable so tests can script DNS answers. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The operating system's resolver (`dns.lookup` with `all: true`), which honours /etc/hosts. */
export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses.map((entry) => ({ address: entry.address, family: toFamily(entry) })));
    });
  });

function toFamily(entry: LookupAddress): 4 | 6 {
  return entry.family === 6 ? 6 : 4;
}

/** Raised at connect time when a receiver's host is, or resolves to, a non-public address. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  /** Node-style error code, so it survives wrapping by the HTTP client. */
  readonly code = 'ERR_BLOCKED_ADDRESS';

  constructor(
    /** The host name that was being connected to. */
    readonly hostname: string,
    /** The offending address. */
    readonly address: string,
    /** The range the address is in, e.g. `loopback`. */
    readonly range: string,
  ) {
    super(
      hostname === address
        ? `refused to connect to ${address}: it is a ${range} address`
        : `refused to connect to ${hostname}: it resolved to ${address}, a ${range} address`,
    );
  }
}

/** Options of {@link resolvePublicAddresses} and {@link createSafeDispatcher}. */
export interface SafeResolveOptions {
  /** Let non-public addresses through (development and tests only). Default false. */
  allowPrivate?: boolean;
  /** Resolver to use. Default {@link systemResolver}. */
  resolver?: HostResolver;
}

/**
 * Resolves a host name and returns its addresses only when every one of them is public (or
 * `allowPrivate` is set); an IP literal (bracketed IPv6 included) is checked without resolving.
 *
 * @throws {BlockedAddressError} when any address is not public.
 */
export async function resolvePublicAddresses(
  hostname: string,
  options: SafeResolveOptions = {},
): Promise<readonly ResolvedAddress[]> {
  // URL.hostname keeps the brackets of an IPv6 literal.
  const bare =
    hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const literalFamily = isIP(bare);
  const addresses: readonly ResolvedAddress[] =
    literalFamily === 0
      ? await (options.resolver ?? systemResolver)(hostname)
      : [{ address: bare, family: literalFamily === 6 ? 6 : 4 }];
  if (addresses.length === 0) {
    throw Object.assign(new Error(`${hostname} did not resolve to any address`), {
      code: 'ENOTFOUND',
    });
  }
  if (!options.allowPrivate) {
    // Refuse when ANY answer is non-public, not just the one we would pick: a name that mixes
    // public and internal answers is an attack, and happy-eyeballs may try every answer.
    for (const { address } of addresses) {
      const classification = classifyAddress(address);
      if (!classification.isPublic) {
        throw new BlockedAddressError(hostname, address, classification.range);
      }
    }
  }
  return addresses;
}

function normalizeFamily(family: number | string | undefined): 4 | 6 | null {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return null;
}

function guardedLookup(options: SafeResolveOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolvePublicAddresses(hostname, options).then(
      (addresses) => {
        const family = normalizeFamily(lookupOptions.family);
        const wanted =
          family === null ? addresses : addresses.filter((entry) => entry.family === family);
        const first = wanted[0];
        if (first === undefined) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} has no IPv${family} address`);
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
        } else if (lookupOptions.all) {
          // net.connect asks for every address when it races IPv4 and IPv6 (autoSelectFamily).
          callback(
            null,
            wanted.map((entry) => ({ address: entry.address, family: entry.family })),
          );
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** Options of {@link createSafeDispatcher}. */
export interface SafeDispatcherOptions extends SafeResolveOptions {
  /** Most time to establish a connection (TCP and TLS), in milliseconds. Default 10000. */
  connectTimeoutMs?: number;
}

/**
 * Creates the undici dispatcher every outbound webhook and fetch goes through: it resolves each
 * host at connect time and refuses to connect unless every address is public, so a name that
 * passed validation and later rebinds to 127.0.0.1 still cannot reach the loopback. It never
 * follows redirects (undici's `request` only does so with a redirect interceptor, never added here).
 *
 * @example const dispatcher = createSafeDispatcher({ allowPrivate: config.webhookAllowPrivateUrls });
 */
export function createSafeDispatcher(options: SafeDispatcherOptions = {}): Agent {
  const connector = buildConnector({
    lookup: guardedLookup(options),
    timeout: options.connectTimeoutMs ?? 10_000,
  });
  return new Agent({
    connect: (connectOptions, callback) => {
      // net.connect skips `lookup` for IP literals, so those are checked here instead.
      const { hostname } = connectOptions;
      if (isIP(hostname) !== 0 && !options.allowPrivate) {
        const classification = classifyAddress(hostname);
        if (!classification.isPublic) {
          callback(new BlockedAddressError(hostname, hostname, classification.range), null);
          return;
        }
      }
      connector(connectOptions, callback);
    },
  });
}
