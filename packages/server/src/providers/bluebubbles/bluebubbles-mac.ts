import type { Channel } from '@switchboard/contract';
import { ProviderError } from '@switchboard/provider-kit';
import type { BlueBubblesApi, BlueBubblesServerInfo } from './bluebubbles-api';
import { providerErrorOf } from './bluebubbles-errors';

/** How long a server-info answer is reused for gating operations. */
const INFO_TTL_MS = 30_000;

/** Why the Private API cannot be used, from a server-info answer; undefined when it can. */
function privateApiProblem(info: BlueBubblesServerInfo): string | undefined {
  if (!info.private_api) return 'the Private API is disabled in BlueBubbles Server';
  if (!info.helper_connected) return 'the Private API helper is not connected';
  return undefined;
}

/** The newest BlueBubbles Server known to refuse emoji tapbacks (its version at f2e2286). */
const LAST_SERVER_WITHOUT_EMOJI_TAPBACKS = '1.9.9';

/** True when dotted version `version` is above `floor` (`1.10.0` > `1.9.9`); false when unreadable. */
function versionAbove(version: string, floor: string): boolean {
  const parts = (value: string) => value.split(/[.-]/).map((part) => Number.parseInt(part, 10));
  const [a, b] = [parts(version), parts(floor)];
  if (a.some(Number.isNaN) && Number.isNaN(a[0])) return false;
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const left = a[index] ?? 0;
    const right = b[index] ?? 0;
    if (Number.isNaN(left)) return false;
    if (left !== right) return left > right;
  }
  return false;
}

/** The major version of a macOS version string (`14.6.1` → 14). */
function macOsMajor(version: string): number {
  return Number.parseInt(version.split('.')[0] ?? '0', 10) || 0;
}

/** What the Mac's owner configured that depends on what the Mac reports. */
export interface MacSettings {
  /** `auto`: the Private API when its helper is connected, else AppleScript. */
  sendMethod: 'auto' | 'private-api' | 'apple-script';
  /** The configured instance address, if any. */
  address?: string;
  /** The instance name, the address of last resort. */
  instanceName: string;
}

/**
 * What one Mac can do now, from `/server/info` (reused 30 s): whether the Private API is there,
 * its macOS version, its iMessage account. Operations that need more than the Mac has are refused
 * here with the reason.
 */
export class MacStatus {
  readonly #api: BlueBubblesApi;
  readonly #now: () => number;
  readonly #settings: MacSettings;
  #info: { value: BlueBubblesServerInfo; at: number } | undefined;
  #address: string | undefined;
  readonly #configured: boolean;

  /** The status of the Mac behind `api`. */
  constructor(api: BlueBubblesApi, now: () => number, settings: MacSettings) {
    this.#api = api;
    this.#now = now;
    this.#settings = settings;
    this.#address = settings.address;
    this.#configured = settings.address !== undefined;
  }

  /** `/server/info`, from the last 30 s unless `fresh`. */
  async info(fresh = false): Promise<BlueBubblesServerInfo> {
    const cached = this.#info;
    if (!fresh && cached && this.#now() - cached.at < INFO_TTL_MS) return cached.value;
    const value = await this.#api.serverInfo();
    this.#info = { value, at: this.#now() };
    return value;
  }

  /** Why the Private API cannot be used now, or undefined when it can. */
  async privateApiMissing(): Promise<string | undefined> {
    return privateApiProblem(await this.info());
  }

  /** True when the Private API can be used now (false when the Mac does not answer). */
  async privateApiReady(): Promise<boolean> {
    return (await this.privateApiMissing().catch(() => 'unreachable')) === undefined;
  }

  /** `private-api` when configured, or on `auto` when the helper is connected; else `apple-script`. */
  async sendMethod(): Promise<'private-api' | 'apple-script'> {
    const configured = this.#settings.sendMethod;
    if (configured !== 'auto') return configured;
    return (await this.privateApiReady()) ? 'private-api' : 'apple-script';
  }

  /**
   * Refuses with CHANNEL_NOT_SUPPORTED, saying why, an operation the Private API (or macOS
   * `minMacOs`) is needed for and the Mac does not have now.
   */
  async require(channel: Channel, operation: string, minMacOs: number): Promise<void> {
    let info: BlueBubblesServerInfo;
    try {
      info = await this.info();
    } catch (error) {
      throw providerErrorOf(error, channel, operation);
    }
    const reason = privateApiProblem(info);
    if (reason !== undefined) {
      throw new ProviderError(
        'CHANNEL_NOT_SUPPORTED',
        `${operation} needs the BlueBubbles Private API: ${reason}`,
        { channel },
      );
    }
    if (macOsMajor(info.os_version) < minMacOs) {
      throw new ProviderError(
        'CHANNEL_NOT_SUPPORTED',
        `${operation} needs macOS ${minMacOs} or newer; this Mac runs macOS ${info.os_version}`,
        { channel },
      );
    }
  }

  /** True when the instance's `address` is configured (not detected). */
  get addressConfigured(): boolean {
    return this.#configured;
  }

  /**
   * Refuses with CHANNEL_NOT_SUPPORTED, saying why, an emoji tapback to a server that cannot take
   * one: BlueBubbles Server 1.9.9 (bluebubbles-server@f2e2286) validates `reaction` against the
   * twelve classic strings (api/http/api/v1/validators/messageValidator.ts:167-171), so only a
   * newer server is asked. The answer is read fresh: an update shows at once.
   */
  async requireEmojiTapbacks(channel: Channel): Promise<void> {
    let info: BlueBubblesServerInfo;
    try {
      info = await this.info(true);
    } catch (error) {
      throw providerErrorOf(error, channel, 'emoji tapbacks');
    }
    if (!versionAbove(info.server_version, LAST_SERVER_WITHOUT_EMOJI_TAPBACKS)) {
      throw new ProviderError(
        'CHANNEL_NOT_SUPPORTED',
        `BlueBubbles Server ${info.server_version} takes only the six classic tapbacks; emoji tapbacks need a server newer than ${LAST_SERVER_WITHOUT_EMOJI_TAPBACKS}`,
        { channel },
      );
    }
  }

  /** The instance address: configured, else the iMessage account BlueBubbles detects. */
  async address(): Promise<string> {
    if (this.#address !== undefined) return this.#address;
    const detected = (await this.info().catch(() => undefined))?.detected_imessage;
    if (detected) this.#address = detected;
    return detected || this.#settings.instanceName;
  }
}
