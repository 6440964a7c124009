/**
 * The Switchboard WhatsApp adapter, built on Baileys. The server loads this package only when an
 * instance with `provider: "baileys"` is configured.
 */
import { systemTimerClock, type TimerClock } from '@switchboard/provider-kit';
import makeWASocket, {
  DEFAULT_CONNECTION_CONFIG,
  downloadMediaMessage,
  type WABrowserDescription,
  type WAVersion,
} from 'baileys';
import { BaileysProvider } from './baileys-provider';
import type { BaileysMediaDownloader, BaileysSocketFactory } from './baileys-socket';
import { proxyAgentOf } from './proxy-agent';

export { BAILEYS_CHANNELS, BAILEYS_PROVIDER, BaileysProvider } from './baileys-provider';
export type {
  BaileysMediaDownloader,
  BaileysSocket,
  BaileysSocketFactory,
} from './baileys-socket';
export { type CloseAction, type CloseDecision, decideOnClose } from './disconnect-reasons';
export { jidToPhone, phoneToJid } from './jids';
export { type BaileysProxySettings, proxyAgentOf, proxyLabel } from './proxy-agent';
export { authPrefix, loadStoredAuthState, type StoredAuthState } from './stored-auth-state';

/** The settings of a `baileys` instance (the contract's `BaileysInstanceConfig`, parsed). */
export interface BaileysInstanceSettings {
  /** The WhatsApp Web version to announce; Baileys' own default when omitted. */
  version?: readonly [number, number, number] | undefined;
  /** The linked-device name shown on the phone: `[os, browser, version]`. */
  browser?: readonly [string, string, string] | undefined;
  /** Appear online when connected. */
  markOnlineOnConnect?: boolean | undefined;
  /** The proxy the sockets go out through: `http(s)://` or `socks5(h)://`, host and port. */
  proxyUrl?: string | undefined;
  /** The proxy user name. */
  proxyUsername?: string | undefined;
  /** The proxy password. */
  proxyPassword?: string | undefined;
}

/** Server-side options: what tests replace, and timings. */
export interface BaileysAdapterOptions {
  /** Opens sockets (default: Baileys' `makeWASocket`). */
  socketFactory?: BaileysSocketFactory;
  /** Fetches received media (default: Baileys' `downloadMediaMessage`). */
  download?: BaileysMediaDownloader;
  /** Timers (default: the system clock). */
  clock?: TimerClock;
  /** QR codes shown per pairing before `qr_timeout` (default 5: about two minutes). */
  maxQrCodes?: number;
  /** Waits before reconnecting after a lost connection (default 1, 2, 5, 15, 30, 60 s). */
  reconnectDelaysMs?: readonly number[];
  /** Where sockets connect instead of WhatsApp (tests: a local endpoint; Baileys' `waWebSocketUrl`). */
  waWebSocketUrl?: string;
  /** Time-to-live of the lease on a number's socket (default 15 s; renewed every third). */
  leaseTtlMs?: number;
  /** How often a session waiting for another process's lease asks again (default 2 s). */
  leaseRetryMs?: number;
}

/** The linked-device name shown on the phone by default. */
const DEFAULT_BROWSER: WABrowserDescription = ['Switchboard', 'Chrome', '1.0'];

const defaultDownload: BaileysMediaDownloader = (message, { socket, logger }) =>
  downloadMediaMessage(
    message,
    'buffer',
    {},
    { reuploadRequest: socket.updateMediaMessage, logger },
  );

/** The proxy of an instance's settings and its agent; undefined without `proxyUrl`. */
function proxyOf(config: BaileysInstanceSettings) {
  if (config.proxyUrl === undefined) return undefined;
  const settings = {
    url: config.proxyUrl,
    username: config.proxyUsername,
    password: config.proxyPassword,
  };
  return { settings, agent: proxyAgentOf(settings) };
}

/**
 * Builds one Baileys instance.
 * @example const provider = createBaileysProvider({ name: 'wa', config: {} });
 */
export function createBaileysProvider(
  instance: { name: string; config: BaileysInstanceSettings },
  options: BaileysAdapterOptions = {},
): BaileysProvider {
  const socketFactory: BaileysSocketFactory =
    options.socketFactory ?? ((config) => makeWASocket(config));
  return new BaileysProvider({
    instanceName: instance.name,
    settings: {
      socketFactory,
      download: options.download ?? defaultDownload,
      version: [...(instance.config.version ?? DEFAULT_CONNECTION_CONFIG.version)] as WAVersion,
      browser: [...(instance.config.browser ?? DEFAULT_BROWSER)] as WABrowserDescription,
      markOnlineOnConnect: instance.config.markOnlineOnConnect ?? false,
      proxy: proxyOf(instance.config),
      waWebSocketUrl: options.waWebSocketUrl,
      maxQrCodes: options.maxQrCodes ?? 5,
      reconnectDelaysMs: options.reconnectDelaysMs ?? [1_000, 2_000, 5_000, 15_000, 30_000, 60_000],
      clock: options.clock ?? systemTimerClock,
      leaseTtlMs: options.leaseTtlMs ?? 15_000,
      leaseRetryMs: options.leaseRetryMs ?? 2_000,
    },
  });
}
