import type { OtpProvider, WhatsAppSessionStatus } from '@switchboard/contract';
import { boolean, index, integer, json, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ConversationChannel, StoredParticipant } from '../conversation-repository';
import type { Channel } from '../store-types';
import { bytea, text, timestamp } from './pg-columns';
import { customerIdColumn, instanceIdColumn } from './pg-schema';

/**
 * Chats (conversations): groups created through the API and chats seen in inbound traffic. A row
 * exists before its provider chat does (`chat_id` null while the group is being created), so a
 * send keyed by it can answer CONVERSATION_NOT_READY. Participants are a small JSON array.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    customerId: customerIdColumn(),
    instanceId: instanceIdColumn(),
    channel: text('channel').$type<ConversationChannel>().notNull(),
    chatId: text('chat_id'),
    /** The instance address that owns the chat (the group creator or the receiving number). */
    ownerAddress: text('owner_address').notNull(),
    isGroup: boolean('is_group').notNull(),
    name: text('name'),
    participants: json('participants').$type<StoredParticipant[]>().notNull(),
    leftAt: timestamp('left_at'),
    /** When the chat was last marked read on the instance's own device; null when unread. */
    readAt: timestamp('read_at'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (table) => [
    uniqueIndex('conversations_customer_instance_chat_unique').on(
      table.customerId,
      table.instanceId,
      table.chatId,
    ),
    index('conversations_customer_chat_idx').on(table.customerId, table.chatId),
  ],
);

/** The WhatsApp session state of each owned number, as the provider last reported it. */
export const whatsappSessions = pgTable(
  'whatsapp_sessions',
  {
    customerId: customerIdColumn(),
    phoneNumber: text('phone_number').notNull(),
    instanceId: instanceIdColumn(),
    status: text('status').$type<WhatsAppSessionStatus>().notNull(),
    jid: text('jid'),
    qrCode: text('qr_code'),
    disconnectReason: text('disconnect_reason'),
    lastConnectedAt: timestamp('last_connected_at'),
    lastDisconnectedAt: timestamp('last_disconnected_at'),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (table) => [
    uniqueIndex('whatsapp_sessions_customer_number_unique').on(table.customerId, table.phoneNumber),
  ],
);

/** The bytes of inbound attachments, served by the pre-signed download URL. */
export const storedAttachments = pgTable(
  'stored_attachments',
  {
    id: text('id').primaryKey(),
    customerId: customerIdColumn(),
    messageId: text('message_id').notNull(),
    position: integer('position').notNull(),
    providerId: text('provider_id'),
    mimeType: text('mime_type').notNull(),
    filename: text('filename'),
    totalBytes: integer('total_bytes').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at').notNull(),
    /** The id of the original, when this is a browser-playable copy of it. */
    renditionOf: text('rendition_of'),
  },
  (table) => [
    index('stored_attachments_message_idx').on(table.messageId),
    // Retention: a customer's attachments by age.
    index('stored_attachments_customer_created_idx').on(table.customerId, table.createdAt),
  ],
);

/** Verification codes received by a customer's numbers, kept for the signup-codes endpoint. */
export const signupCodes = pgTable(
  'signup_codes',
  {
    messageId: text('message_id').primaryKey(),
    customerId: customerIdColumn(),
    receivingAddress: text('receiving_address').notNull(),
    code: text('code').notNull(),
    provider: text('provider').$type<OtpProvider>().notNull(),
    fromAddress: text('from_address').notNull(),
    channel: text('channel').$type<Channel>().notNull(),
    receivedAt: timestamp('received_at').notNull(),
  },
  (table) => [
    index('signup_codes_customer_address_idx').on(
      table.customerId,
      table.receivingAddress,
      table.receivedAt,
    ),
  ],
);

/** FaceTime calls seen on a customer's numbers: deduplicates their events, scopes the sandbox. */
export const faceTimeCalls = pgTable(
  'facetime_calls',
  {
    customerId: customerIdColumn(),
    callUuid: text('call_uuid').notNull(),
    instanceId: instanceIdColumn(),
    receivingAddress: text('receiving_address').notNull(),
    otherParty: text('other_party').notNull(),
    isVideo: boolean('is_video').notNull(),
    status: text('status').notNull(),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (table) => [
    uniqueIndex('facetime_calls_customer_call_unique').on(table.customerId, table.callUuid),
  ],
);

/** Server-wide secrets generated on first start (the attachment URL signing key). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at').notNull(),
});
