import type { FaceTimeCallStatus } from '@switchboard/contract';

/** A FaceTime call seen on a customer's number. */
export interface FaceTimeCallRecord {
  /** The owning customer. */
  customerId: string;
  /** The upstream's call id. */
  callUuid: string;
  /** The instance that reported it. */
  instanceId: string;
  /** The customer's address called (or calling). */
  receivingAddress: string;
  /** The other party. */
  otherParty: string;
  /** True for a video call. */
  isVideo: boolean;
  /** The latest state. */
  status: FaceTimeCallStatus;
  /** First seen. */
  createdAt: Date;
  /** Last change. */
  updatedAt: Date;
}

/** FaceTime calls. Every query is scoped by customer. */
export interface FaceTimeCallRepository {
  /** Inserts the call, or updates its status when it exists. */
  save(call: FaceTimeCallRecord): Promise<void>;
  /** The customer's call with this id. */
  find(customerId: string, callUuid: string): Promise<FaceTimeCallRecord | undefined>;
}
