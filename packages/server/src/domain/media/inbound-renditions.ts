import type { MediaEngine } from '../../media/media-engine';
import { decideBrowserRendition } from '../../media/media-plan';

/** A browser-playable copy of a received file. */
export interface InboundRendition {
  /** Its MIME type. */
  mimeType: string;
  /** Its bytes. */
  data: Uint8Array;
}

/** Something that went wrong making a copy (logged; the original is kept as it came). */
export type RenditionFailure = (error: unknown, mimeType: string) => void;

/**
 * Makes browser-playable copies of received voice notes and videos (`INBOUND_MEDIA_RENDITIONS`):
 * AAC in M4A for CAF, Ogg or AMR audio, H.264 and AAC in MP4 for video that is not already,
 * in the same pool as outbound conversions. A copy that cannot be made is simply not listed.
 */
export class InboundRenditions {
  /** Copies made by `engine`, at most `maxBytes` each; `onFailure` hears what went wrong. */
  constructor(
    private readonly engine: Pick<MediaEngine, 'converter'>,
    private readonly maxBytes: number,
    private readonly onFailure: RenditionFailure,
  ) {}

  /** The copies `data` (of type `mimeType`) needs: none, or one. */
  async of(data: Uint8Array, mimeType: string): Promise<InboundRendition[]> {
    let decision = decideBrowserRendition(mimeType);
    if (decision.kind === 'as-is') return [];
    try {
      const availability = await this.engine.converter();
      if (!availability.available) return [];
      const { converter } = availability;
      if (decision.kind === 'probe') {
        decision = decideBrowserRendition(mimeType, await converter.probe(data));
      }
      if (decision.kind !== 'convert') return [];
      const converted = await converter.convert(data, decision.profile, this.maxBytes);
      return [{ mimeType: decision.profile.mimeType, data: converted }];
    } catch (error) {
      this.onFailure(error, mimeType);
      return [];
    }
  }
}
