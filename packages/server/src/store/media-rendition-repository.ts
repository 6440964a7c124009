/** A converted file, kept by the hash of its input and the conversion that made it. */
export interface MediaRenditionRecord {
  /** `<sha-256 of the input, hex>:<profile name>`: identical input bytes are converted once. */
  id: string;
  /** The result's MIME type. */
  mimeType: string;
  /** The codecs of the result. */
  codecs: string[];
  /** Size of the result in bytes. */
  totalBytes: number;
  /** The result. */
  data: Uint8Array;
  /** When it was made. */
  createdAt: Date;
}

/** The conversion cache: results of outbound media conversions. */
export interface MediaRenditionRepository {
  /** Keeps a result; a second insert of the same id changes nothing. */
  insert(rendition: MediaRenditionRecord): Promise<void>;
  /** The result with this id. */
  findById(id: string): Promise<MediaRenditionRecord | undefined>;
  /** Removes results made before `cutoff`; answers how many. */
  deleteOlderThan(cutoff: Date): Promise<number>;
}
