/** The metadata of a stored inbound attachment. */
export interface StoredAttachmentInfo {
  /** `att_<uuid v7>`: the id in its download URL. */
  id: string;
  /** The owning customer. */
  customerId: string;
  /** The inbound message it came with. */
  messageId: string;
  /** Its position among the message's attachments. */
  position: number;
  /** The provider's attachment id (iMessage GUID). */
  providerId: string | null;
  /** MIME type. */
  mimeType: string;
  /** File name, when the sender gave one. */
  filename: string | null;
  /** Size in bytes. */
  totalBytes: number;
  /** When it was stored. */
  createdAt: Date;
  /** The id of the original when this is a browser-playable copy of it (a rendition). */
  renditionOf?: string | null;
}

/** A stored inbound attachment with its bytes. */
export interface StoredAttachmentRecord extends StoredAttachmentInfo {
  /** The bytes. */
  data: Uint8Array;
}

/** The bytes of inbound attachments. */
export interface StoredAttachmentRepository {
  /** Stores one attachment. */
  insert(attachment: StoredAttachmentRecord): Promise<void>;
  /**
   * The attachment with this id, whoever owns it: the signed URL is the credential of the
   * download, which carries no API key.
   */
  findById(id: string): Promise<StoredAttachmentRecord | undefined>;
  /** The attachments of a message (not their renditions), by position, without their bytes. */
  listOfMessage(customerId: string, messageId: string): Promise<StoredAttachmentInfo[]>;
}
