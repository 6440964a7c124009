import type { BaileysEventMap, GroupMetadata } from 'baileys';

/** How long a group's members are trusted without news of them: five minutes. */
const GROUP_METADATA_TTL_MS = 5 * 60 * 1000;

/**
 * The metadata of the groups a session knows, handed to Baileys as `cachedGroupMetadata`: without
 * it, Baileys queries a group's metadata from WhatsApp before every send to it. Filled by what the
 * session fetches or creates and by Baileys' refetches; a member change drops the group, so the
 * next send asks WhatsApp again.
 */
export class GroupMetadataCache {
  readonly #groups = new Map<string, { metadata: GroupMetadata; expiresAt: number }>();

  /** A cache on `now`. */
  constructor(
    private readonly now: () => number,
    private readonly ttlMs = GROUP_METADATA_TTL_MS,
  ) {}

  /** The metadata of `jid`, when known and fresh (what Baileys' `cachedGroupMetadata` asks). */
  get(jid: string): GroupMetadata | undefined {
    const kept = this.#groups.get(jid);
    if (!kept || kept.expiresAt <= this.now()) return undefined;
    return kept.metadata;
  }

  /** Keeps `metadata` as fetched from WhatsApp. */
  put(metadata: GroupMetadata): void {
    this.#groups.set(metadata.id, { metadata, expiresAt: this.now() + this.ttlMs });
  }

  /**
   * Applies `groups.update`: a full refetch (with members) replaces the entry, a change merges
   * into it.
   */
  update(updates: BaileysEventMap['groups.update']): void {
    for (const update of updates) {
      if (!update.id) continue;
      if (Array.isArray(update.participants) && update.subject !== undefined) {
        this.put(update as GroupMetadata);
        continue;
      }
      const kept = this.#groups.get(update.id);
      if (kept)
        kept.metadata = { ...kept.metadata, ...update, participants: kept.metadata.participants };
    }
  }

  /** Forgets `jid` (its members changed). */
  drop(jid: string): void {
    this.#groups.delete(jid);
  }
}
