import type { ProviderStateStore } from '@switchboard/provider-kit';
import type { TwilioApi, TwilioMessage } from './twilio-api';

/** One Twilio message the adapter is about to create, or created: kept across crashes. */
interface LedgerEntry {
  /** When the create call was first made (epoch ms). */
  startedAt: number;
  /** The recipient. */
  to: string;
  /** The sender number, or null when a Messaging Service picks it. */
  from: string | null;
  /** The body sent (Twilio answers `""` for a media-only message). */
  body: string;
  /** How many media URLs it carries. */
  media: number;
  /** The Twilio SID, once known. */
  sid?: string;
}

/** How long entries are kept: a re-driven attempt older than this is sent again. */
const RETENTION_MS = 48 * 60 * 60 * 1000;
/** Clock skew allowed between this server and Twilio's `date_created`. */
const SKEW_MS = 5 * 60 * 1000;
/** How many of the newest messages between two addresses a reconciliation looks at. */
const PAGE_SIZE = 50;

const ENTRY_PREFIX = 'send:';
const SID_PREFIX = 'sid:';

/**
 * Twilio takes no idempotency key, so the adapter keeps its own: every message it creates is
 * written down before the call (keyed by attempt id and part), its SID after. When an attempt is
 * driven again (a call that timed out or answered 5xx, a crash mid-call), the entry says whether
 * Twilio already has it; an entry without SID is looked for in Twilio's message list before
 * anything is sent again, so an uncertain call is never blindly repeated.
 */
export class TwilioSendLedger {
  /** A ledger in the instance's state store. */
  constructor(
    private readonly state: ProviderStateStore,
    private readonly api: TwilioApi,
    private readonly now: () => number,
  ) {}

  /**
   * The SID of part `index` of `attemptId` when Twilio already has it (recorded, or found in its
   * list); otherwise records that it is about to be created and answers undefined.
   */
  async before(
    attemptId: string,
    index: number,
    message: Omit<LedgerEntry, 'startedAt' | 'sid'>,
  ): Promise<string | undefined> {
    const key = entryKey(attemptId, index);
    const prior = parse(await this.state.get(key));
    if (prior) return this.#resolve(attemptId, index, prior);
    await this.state.set(key, JSON.stringify({ ...message, startedAt: this.now() }));
    return undefined;
  }

  /** Records the SID Twilio gave part `index` of `attemptId`. */
  async created(attemptId: string, index: number, sid: string): Promise<void> {
    const key = entryKey(attemptId, index);
    const entry = parse(await this.state.get(key));
    if (!entry) return;
    await this.state.set(SID_PREFIX + sid, key);
    await this.state.set(key, JSON.stringify({ ...entry, sid }));
  }

  /** Forgets part `index` of `attemptId`: Twilio refused it for certain (a 4xx). */
  async refused(attemptId: string, index: number): Promise<void> {
    await this.state.delete(entryKey(attemptId, index));
  }

  /**
   * Looks for the message of an uncertain create call of part `index` of `attemptId` in Twilio's
   * list, and records it when found.
   */
  async reconcile(attemptId: string, index: number): Promise<string | undefined> {
    const entry = parse(await this.state.get(entryKey(attemptId, index)));
    return entry ? this.#resolve(attemptId, index, entry) : undefined;
  }

  /** The SID of `entry`: recorded, or found in Twilio's list (and then recorded). */
  async #resolve(
    attemptId: string,
    index: number,
    entry: LedgerEntry,
  ): Promise<string | undefined> {
    if (entry.sid !== undefined) return entry.sid;
    const found = await this.find(entry);
    if (!found) return undefined;
    await this.created(attemptId, index, found.sid);
    return found.sid;
  }

  /** Removes entries older than the retention. */
  async prune(): Promise<void> {
    const horizon = this.now() - RETENTION_MS;
    for (const key of await this.state.keys(ENTRY_PREFIX)) {
      const entry = parse(await this.state.get(key));
      if (entry && entry.startedAt >= horizon) continue;
      await this.state.delete(key);
      if (entry?.sid !== undefined) await this.state.delete(SID_PREFIX + entry.sid);
    }
  }

  /**
   * The message Twilio created for `entry`: to and from the same addresses, the same body and
   * media count, created since the first call, and not claimed by another entry.
   */
  async find(entry: LedgerEntry): Promise<TwilioMessage | undefined> {
    const listed = await this.api.listMessages({
      to: entry.to,
      ...(entry.from === null ? {} : { from: entry.from }),
      pageSize: PAGE_SIZE,
    });
    for (const message of listed) {
      const created = message.date_created ? Date.parse(message.date_created) : Number.NaN;
      if (!(created >= entry.startedAt - SKEW_MS)) continue;
      if ((message.body ?? '') !== entry.body) continue;
      if (Number(message.num_media ?? '0') !== entry.media) continue;
      if ((await this.state.get(SID_PREFIX + message.sid)) !== undefined) continue;
      return message;
    }
    return undefined;
  }
}

function entryKey(attemptId: string, index: number): string {
  return `${ENTRY_PREFIX}${attemptId}:${index}`;
}

function parse(value: string | undefined): LedgerEntry | undefined {
  return value === undefined ? undefined : (JSON.parse(value) as LedgerEntry);
}
