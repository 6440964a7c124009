import { createHash } from 'node:crypto';
import type { Channel, MediaConversion } from '@switchboard/contract';
import type { ProviderOutboundAttachment } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import { MediaConversionError, type MediaConverter } from '../../media/media-converter';
import type { MediaEngine } from '../../media/media-engine';
import {
  type ChannelMediaLimits,
  formatBytes,
  kindLabel,
  largestFor,
  maxBytesFor,
  mediaKindOf,
} from '../../media/media-limits';
import { decideMedia, type MediaDecision } from '../../media/media-plan';
import type { MediaProbe } from '../../media/media-probe';
import type { MediaProfile } from '../../media/media-profiles';
import { sniffMediaType } from '../../media/media-type';
import type { MediaRenditionRecord } from '../../store/media-rendition-repository';
import type { MessageRecord, StoredAttachment } from '../../store/message-repository';
import type { Store } from '../../store/store';
import {
  AttachmentFetchError,
  AttachmentTooLargeError,
  type FetchedFile,
} from '../attachments/attachment-fetcher';

/** A file of a message, ready for one channel: as it was, or converted. */
export interface PreparedFile {
  /** Its position in the send's `attachments`. */
  position: number;
  /** What the provider gets: the stored or converted bytes, or the customer's URL. */
  source: ProviderOutboundAttachment['source'];
  /** Its real type (sniffed from the bytes), or the converted file's. */
  mimeType: string;
  /** Its size as sent, when known (bytes given or converted, or a URL that could be fetched). */
  totalBytes: number | null;
  /** The size of the file the customer gave, when known. */
  sourceBytes: number | null;
  /** How it was converted, when it was. */
  conversion?: MediaConversion;
  /** The id of the converted bytes in the conversion cache (for their public URL). */
  renditionId?: string;
  /** The converted file's extension (its new file name ends with it). */
  extension?: string;
}

/** The files of a message ready for a channel, or why the channel cannot take them. */
export type MediaOutcome =
  | { ok: true; files: PreparedFile[] }
  | {
      ok: false;
      code: 'ATTACHMENT_TOO_LARGE' | 'MEDIA_CONVERSION_FAILED' | 'MEDIA_NOT_AN_IMAGE';
      message: string;
    };

/** Dependencies of {@link OutboundMedia}. */
export interface OutboundMediaOptions {
  /** The stored bytes of sends and the conversion cache. */
  store: Pick<Store, 'messages' | 'mediaRenditions'>;
  /** Fetches a customer's URL through the address guard, stopping after `maxBytes`. */
  fetch: (url: string, maxBytes: number) => Promise<FetchedFile>;
  /** The conversion pool, or why there is none. */
  engine: Pick<MediaEngine, 'converter'>;
  /** The media limits of an instance (its `config.mediaLimits`, defaults applied). */
  limitsOf: (instanceId: string) => Promise<ChannelMediaLimits>;
  /** The time source. */
  clock: Clock;
  /** How long converted files are kept for reuse (7 days by default). */
  cacheTtlMs?: number;
}

/** How long a preparation stays in memory for the send that asked for it. */
const PREPARED_TTL_MS = 15 * 60 * 1000;
/** How often the conversion cache is pruned (at most). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Converted files are reused this long by default. */
const DEFAULT_CACHE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Names of the conversions' targets, for the failure message of a send that needs one. */
const TARGET_NAMES: Readonly<Record<string, string>> = {
  'audio/x-caf': 'Opus in CAF',
  'audio/ogg': 'Opus in Ogg',
  'video/mp4': 'H.264 and AAC in MP4',
  'audio/mp4': 'AAC in M4A',
};

/** The image types `content.mediaUrls` may serve (the spec: jpg, png, gif, webp). */
const MEDIA_URL_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

/** An attachment problem that decides the outcome of the whole message for the channel. */
class MediaRefusal extends Error {
  constructor(
    readonly code: 'ATTACHMENT_TOO_LARGE' | 'MEDIA_CONVERSION_FAILED' | 'MEDIA_NOT_AN_IMAGE',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Gets a message's files ready for the channel it is about to go on (spec, send rules 7 and 8):
 * the real type of each file from its bytes, the channel's size limits (whatsapp 16/64/100 MB,
 * imessage and sms per instance), and the conversions the channel needs (voice memos to Opus in
 * CAF or Ogg, video to H.264 and AAC in MP4) in the bounded pool. URLs are fetched with the
 * limit as a byte cap. Each preparation runs once per message, attempt and channel (kept in
 * memory for the send), and each conversion once per input hash (kept in the database).
 */
export class OutboundMedia {
  readonly #options: OutboundMediaOptions;
  readonly #prepared = new Map<
    string,
    { outcome: Promise<MediaOutcome>; settled: boolean; at: number }
  >();
  readonly #converting = new Map<string, Promise<MediaRenditionRecord>>();
  #prunedAt = Number.NEGATIVE_INFINITY;

  /** Media preparation over the given dependencies. */
  constructor(options: OutboundMediaOptions) {
    this.#options = options;
  }

  /** True when the message carries files (attachments or media URLs) to prepare. */
  hasMedia(message: MessageRecord): boolean {
    return message.attachments.length > 0 || (message.mediaUrls?.length ?? 0) > 0;
  }

  /**
   * Starts preparing the message's files for `channel` on `instanceId` when that has not started,
   * and answers undefined when the preparation is done, else a promise settling when it is.
   */
  whenReady(
    message: MessageRecord,
    channel: Channel,
    instanceId: string,
  ): Promise<void> | undefined {
    const entry = this.#entry(message, channel, instanceId);
    // Settles when the preparation failed too: the turn that comes back meets the failure.
    const settled = (): undefined => undefined;
    return entry.settled ? undefined : entry.outcome.then(settled, settled);
  }

  /** The message's files ready for `channel` on `instanceId` (prepared now, or earlier). */
  prepare(message: MessageRecord, channel: Channel, instanceId: string): Promise<MediaOutcome> {
    return this.#entry(message, channel, instanceId).outcome;
  }

  /** Forgets the preparations of a message whose delivery turn ended. */
  release(messageId: string): void {
    for (const key of this.#prepared.keys()) {
      if (key.startsWith(`${messageId}:`)) this.#prepared.delete(key);
    }
  }

  /** The converted bytes with this id (for their public URL), when they are still kept. */
  rendition(id: string): Promise<MediaRenditionRecord | undefined> {
    return this.#options.store.mediaRenditions.findById(id);
  }

  #entry(message: MessageRecord, channel: Channel, instanceId: string) {
    const key = `${message.id}:${message.retryCount}:${channel}:${instanceId}`;
    const existing = this.#prepared.get(key);
    if (existing) return existing;
    const now = this.#options.clock.now();
    for (const [old, entry] of this.#prepared) {
      if (now - entry.at > PREPARED_TTL_MS) this.#prepared.delete(old);
    }
    const entry = {
      outcome: this.#prepare(message, channel, instanceId),
      settled: false,
      at: now,
    };
    // Settled either way: a preparation that failed (the store closed under it as the server
    // stopped) is reported to the turn that awaits it, never as an unhandled rejection.
    const settle = (): void => {
      entry.settled = true;
    };
    void entry.outcome.then(settle, settle);
    this.#prepared.set(key, entry);
    return entry;
  }

  async #prepare(
    message: MessageRecord,
    channel: Channel,
    instanceId: string,
  ): Promise<MediaOutcome> {
    try {
      const limits = await this.#options.limitsOf(instanceId);
      await this.#checkMediaUrls(message, channel, limits);
      const data = message.attachments.some((attachment) => attachment.hasData)
        ? await this.#options.store.messages.attachmentData(message.id)
        : new Map<number, Uint8Array>();
      const files: PreparedFile[] = [];
      for (const attachment of message.attachments) {
        const file = await this.#file(attachment, data.get(attachment.position), channel, limits);
        if (file) files.push(file);
      }
      return { ok: true, files };
    } catch (error) {
      if (error instanceof MediaRefusal) {
        return { ok: false, code: error.code, message: error.message };
      }
      throw error;
    }
  }

  /**
   * `content.mediaUrls` are images the upstream fetches: their size is checked here, and their
   * type by their first bytes (an extension-less URL serving a PDF is not an image, whatever it
   * is called). A URL that cannot be fetched from here is left to the upstream.
   */
  async #checkMediaUrls(
    message: MessageRecord,
    channel: Channel,
    limits: ChannelMediaLimits,
  ): Promise<void> {
    const max = maxBytesFor(channel, 'image', limits);
    for (const [index, url] of (message.mediaUrls ?? []).entries()) {
      const field = `content.mediaUrls[${index}]`;
      const bytes = await this.#fetched(url, max, field, channel, 'image');
      if (bytes === undefined) continue;
      const sniffed = await sniffMediaType(bytes);
      if (sniffed === undefined || !MEDIA_URL_TYPES.has(sniffed.mimeType)) {
        throw new MediaRefusal(
          'MEDIA_NOT_AN_IMAGE',
          `${field} serves ${sniffed?.mimeType ?? 'bytes of no known type'}, not a JPEG, PNG, GIF or WebP image; send other files with attachments[]`,
        );
      }
    }
  }

  async #file(
    attachment: StoredAttachment,
    stored: Uint8Array | undefined,
    channel: Channel,
    limits: ChannelMediaLimits,
  ): Promise<PreparedFile | undefined> {
    const field = `attachments[${attachment.position}]`;
    const declared = attachment.mimeType ?? 'application/octet-stream';
    let bytes = stored;
    if (!bytes) {
      if (attachment.url === null) return undefined;
      const declaredDecision = decideMedia(channel, {
        mimeType: declared,
        extension: undefined,
        isAudioMessage: attachment.isAudioMessage,
      });
      bytes = await this.#fetched(
        attachment.url,
        largestFor(channel, limits),
        field,
        channel,
        undefined,
        declaredDecision.kind !== 'as-is',
      );
      if (!bytes) {
        // Not fetchable from here: the upstream fetches the URL itself (and reports its failure).
        return {
          position: attachment.position,
          source: { kind: 'url', url: attachment.url },
          mimeType: declared,
          totalBytes: null,
          sourceBytes: null,
        };
      }
    }
    const sniffed = await sniffMediaType(bytes);
    const mimeType = sniffed?.mimeType ?? declared;
    const kind = mediaKindOf(mimeType);
    const max = maxBytesFor(channel, kind, limits);
    if (bytes.byteLength > max) {
      throw new MediaRefusal(
        'ATTACHMENT_TOO_LARGE',
        `${field} (${mimeType}, ${formatBytes(bytes.byteLength)}) is larger than the ${formatBytes(max)} limit of ${kindLabel(kind)} on ${channel}`,
      );
    }
    const original: PreparedFile = {
      position: attachment.position,
      source:
        stored || attachment.url === null
          ? { kind: 'bytes', data: bytes }
          : { kind: 'url', url: attachment.url },
      mimeType,
      totalBytes: bytes.byteLength,
      sourceBytes: bytes.byteLength,
    };
    const file = {
      mimeType,
      extension: sniffed?.extension,
      isAudioMessage: attachment.isAudioMessage,
    };
    let decision: MediaDecision = decideMedia(channel, file);
    if (decision.kind === 'as-is') return original;
    const converter = await this.#converter(field, mimeType, decision, channel);
    const probe = await this.#probe(converter, bytes, field);
    decision = decideMedia(channel, file, probe);
    if (decision.kind !== 'convert') return original;
    const rendition = await this.#convert(converter, bytes, decision.profile, max, field);
    return {
      position: attachment.position,
      source: { kind: 'bytes', data: rendition.data },
      mimeType: rendition.mimeType,
      totalBytes: rendition.totalBytes,
      sourceBytes: bytes.byteLength,
      renditionId: rendition.id,
      extension: decision.profile.extension,
      conversion: {
        channel,
        action: decision.profile.action,
        from: { mimeType, codecs: probe.streams.map((stream) => stream.codec) },
        to: {
          mimeType: rendition.mimeType,
          codecs: rendition.codecs,
          totalBytes: rendition.totalBytes,
        },
      },
    };
  }

  /**
   * The bytes at `url`, at most `max` long; undefined when they cannot be had (unless `required`:
   * the file needs a conversion, which needs them).
   */
  async #fetched(
    url: string,
    max: number,
    field: string,
    channel: Channel,
    kind: 'image' | undefined,
    required = false,
  ): Promise<Uint8Array | undefined> {
    try {
      return (await this.#options.fetch(url, max)).data;
    } catch (error) {
      if (error instanceof AttachmentTooLargeError) {
        throw new MediaRefusal(
          'ATTACHMENT_TOO_LARGE',
          `${field} is larger than the ${formatBytes(max)} limit of ${kind === 'image' ? 'images' : 'files'} on ${channel}`,
        );
      }
      if (!(error instanceof AttachmentFetchError)) throw error;
      if (required) {
        throw new MediaRefusal(
          'MEDIA_CONVERSION_FAILED',
          `${field} must be converted for ${channel}, but ${error.message}`,
        );
      }
      return undefined;
    }
  }

  async #converter(
    field: string,
    mimeType: string,
    decision: MediaDecision,
    channel: Channel,
  ): Promise<MediaConverter> {
    const availability = await this.#options.engine.converter();
    if (availability.available) return availability.converter;
    const target =
      decision.kind === 'convert'
        ? `converted to ${TARGET_NAMES[decision.profile.mimeType] ?? decision.profile.mimeType}`
        : 'inspected (and possibly converted)';
    throw new MediaRefusal(
      'MEDIA_CONVERSION_FAILED',
      `${field} (${mimeType}) must be ${target} for ${channel}, but transcoding is unavailable: ${availability.reason}`,
    );
  }

  async #probe(converter: MediaConverter, bytes: Uint8Array, field: string): Promise<MediaProbe> {
    try {
      return await converter.probe(bytes);
    } catch (error) {
      throw asRefusal(error, field);
    }
  }

  /** The conversion of `bytes` by `profile`: from the cache, from a running job, or made now. */
  async #convert(
    converter: MediaConverter,
    bytes: Uint8Array,
    profile: MediaProfile,
    maxBytes: number,
    field: string,
  ): Promise<MediaRenditionRecord> {
    const id = `${createHash('sha256').update(bytes).digest('hex')}:${profile.name}`;
    const cached = await this.#options.store.mediaRenditions.findById(id);
    if (cached && cached.totalBytes <= maxBytes) return cached;
    let running = this.#converting.get(id);
    if (!running) {
      running = this.#run(converter, id, bytes, profile, maxBytes).finally(() =>
        this.#converting.delete(id),
      );
      this.#converting.set(id, running);
    }
    try {
      return await running;
    } catch (error) {
      throw asRefusal(error, field);
    }
  }

  async #run(
    converter: MediaConverter,
    id: string,
    bytes: Uint8Array,
    profile: MediaProfile,
    maxBytes: number,
  ): Promise<MediaRenditionRecord> {
    const data = await converter.convert(bytes, profile, maxBytes);
    // What the result holds (a video without sound has no AAC stream), not what was asked for.
    const made = await converter.probe(data);
    const now = this.#options.clock.now();
    const rendition: MediaRenditionRecord = {
      id,
      mimeType: profile.mimeType,
      codecs: made.streams.map((stream) => stream.codec),
      totalBytes: data.byteLength,
      data,
      createdAt: new Date(now),
    };
    const { mediaRenditions } = this.#options.store;
    await mediaRenditions.insert(rendition);
    if (now - this.#prunedAt > PRUNE_EVERY_MS) {
      this.#prunedAt = now;
      await mediaRenditions.deleteOlderThan(
        new Date(now - (this.#options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS)),
      );
    }
    return rendition;
  }
}

/** A conversion's failure as the refusal of the attachment `field`; any other error as it is. */
function asRefusal(error: unknown, field: string): unknown {
  return error instanceof MediaConversionError
    ? new MediaRefusal('MEDIA_CONVERSION_FAILED', `${field}: ${error.message}`)
    : error;
}
