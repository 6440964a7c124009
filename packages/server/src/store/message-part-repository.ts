/** One upstream message of a send that became several. */
export interface MessagePartRecord {
  /** The attempt it belongs to. */
  attemptId: string;
  /** Its position among the attempt's parts, from 0. */
  partIndex: number;
  /** The instance that sent it. */
  instanceId: string;
  /** The upstream's id of this part. */
  externalId: string;
  /** What it carries: the text (with whatever rides along), or an attachment. */
  kind: 'text' | 'attachment';
  /** The furthest status its upstream reported; null before the first. */
  status: 'sent' | 'delivered' | 'read' | 'failed' | null;
  /** Why it failed. */
  errorCode: string | null;
  /** Why it failed, in words. */
  errorMessage: string | null;
}

/** The parts of multi-part sends. */
export interface MessagePartRepository {
  /** Records the parts of an attempt (again: nothing changes). */
  insertAll(parts: readonly MessagePartRecord[]): Promise<void>;
  /** The part an instance's upstream knows under `externalId`. */
  findByExternalId(instanceId: string, externalId: string): Promise<MessagePartRecord | undefined>;
  /** The parts of an attempt, in order. */
  listByAttempt(attemptId: string): Promise<MessagePartRecord[]>;
  /** Records a part's status. */
  updateStatus(
    attemptId: string,
    partIndex: number,
    status: NonNullable<MessagePartRecord['status']>,
    error: { code: string; message: string } | null,
  ): Promise<void>;
}
