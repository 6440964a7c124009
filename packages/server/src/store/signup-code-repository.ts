import type { OtpProvider } from '@switchboard/contract';
import type { Channel } from './store-types';

/** A verification code a customer's number received. */
export interface SignupCodeRecord {
  /** The message that carried it. */
  messageId: string;
  /** The owning customer. */
  customerId: string;
  /** The number (or address) that received it. */
  receivingAddress: string;
  /** The code as a user types it. */
  code: string;
  /** Who sent it. */
  provider: OtpProvider;
  /** The sender address. */
  fromAddress: string;
  /** The channel it arrived on. */
  channel: Channel;
  /** When it arrived. */
  receivedAt: Date;
}

/** Verification codes, kept for the signup-codes endpoint. Every query is scoped by customer. */
export interface SignupCodeRepository {
  /** Stores a code; a second insert for the same message changes nothing. */
  insert(code: SignupCodeRecord): Promise<void>;
  /** The codes `receivingAddress` received since `since`, newest first. */
  listSince(customerId: string, receivingAddress: string, since: Date): Promise<SignupCodeRecord[]>;
  /** Forgets every code received before `before` (all customers); returns their message ids. */
  deleteBefore(before: Date): Promise<string[]>;
}
