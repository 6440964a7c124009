CREATE TABLE `capability_cache` (
	`customer_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`address` text NOT NULL,
	`availability` text NOT NULL,
	`cached_at` integer NOT NULL,
	PRIMARY KEY(`customer_id`, `instance_id`, `address`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`channel` text NOT NULL,
	`chat_id` text,
	`owner_address` text NOT NULL,
	`is_group` integer NOT NULL,
	`name` text,
	`participants` text NOT NULL,
	`left_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_customer_instance_chat_unique` ON `conversations` (`customer_id`,`instance_id`,`chat_id`);--> statement-breakpoint
CREATE INDEX `conversations_customer_chat_idx` ON `conversations` (`customer_id`,`chat_id`);--> statement-breakpoint
CREATE TABLE `facetime_calls` (
	`customer_id` text NOT NULL,
	`call_uuid` text NOT NULL,
	`instance_id` text NOT NULL,
	`receiving_address` text NOT NULL,
	`other_party` text NOT NULL,
	`is_video` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `facetime_calls_customer_call_unique` ON `facetime_calls` (`customer_id`,`call_uuid`);--> statement-breakpoint
CREATE TABLE `server_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `signup_codes` (
	`message_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`receiving_address` text NOT NULL,
	`code` text NOT NULL,
	`provider` text NOT NULL,
	`from_address` text NOT NULL,
	`channel` text NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `signup_codes_customer_address_idx` ON `signup_codes` (`customer_id`,`receiving_address`,`received_at`);--> statement-breakpoint
CREATE TABLE `stored_attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`message_id` text NOT NULL,
	`position` integer NOT NULL,
	`provider_id` text,
	`mime_type` text NOT NULL,
	`filename` text,
	`total_bytes` integer NOT NULL,
	`data` blob NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `stored_attachments_message_idx` ON `stored_attachments` (`message_id`);--> statement-breakpoint
CREATE TABLE `whatsapp_sessions` (
	`customer_id` text NOT NULL,
	`phone_number` text NOT NULL,
	`instance_id` text NOT NULL,
	`status` text NOT NULL,
	`jid` text,
	`qr_code` text,
	`disconnect_reason` text,
	`last_connected_at` integer,
	`last_disconnected_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapp_sessions_customer_number_unique` ON `whatsapp_sessions` (`customer_id`,`phone_number`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`correlation_id` text NOT NULL,
	`message_id` text,
	`callback_url` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `events_customer_created_idx` ON `events` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `events_message_id_idx` ON `events` (`message_id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`webhook_id` text,
	`target_url` text,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`attempt` integer NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer,
	`error` text,
	`created_at` integer NOT NULL,
	`attempted_at` integer,
	`next_attempt_at` integer,
	`lease_owner` text,
	`lease_until` integer,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`name` text,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`events_key` text NOT NULL,
	`secret` text NOT NULL,
	`active` integer NOT NULL,
	`exhausted_chains` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhooks_customer_idx` ON `webhooks` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_active_url_events_unique` ON `webhooks` (`customer_id`,`url`,`events_key`) WHERE "webhooks"."active" = 1;--> statement-breakpoint
CREATE TABLE `message_attachment_data` (
	`message_id` text NOT NULL,
	`position` integer NOT NULL,
	`data` blob NOT NULL,
	PRIMARY KEY(`message_id`, `position`),
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `message_attempts` (
	`attempt_id` text PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`channel` text NOT NULL,
	`external_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `message_attempts_instance_external_idx` ON `message_attempts` (`instance_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `message_attempts_message_idx` ON `message_attempts` (`message_id`);--> statement-breakpoint
CREATE TABLE `message_reactions` (
	`message_id` text NOT NULL,
	`sender` text NOT NULL,
	`customer_id` text NOT NULL,
	`reaction` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`message_id`, `sender`),
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`direction` text NOT NULL,
	`status` text NOT NULL,
	`to_address` text,
	`conversation_id` text,
	`provider_chat_id` text,
	`is_group` integer DEFAULT false NOT NULL,
	`from_address` text NOT NULL,
	`instance_id` text NOT NULL,
	`channel` text,
	`pinned_channel` text,
	`text` text NOT NULL,
	`media_urls` text,
	`attachments` text NOT NULL,
	`effect` text,
	`message_type` text,
	`mentions` text,
	`reply_to` text,
	`scheduled_at` integer,
	`idempotency_key` text,
	`callback_url` text,
	`metadata` text,
	`create_contact` integer,
	`routing_preference` text NOT NULL,
	`routing_fallback` integer NOT NULL,
	`fallback_triggered` integer NOT NULL,
	`external_id` text,
	`error_code` text,
	`error_message` text,
	`retry_count` integer DEFAULT 0 NOT NULL,
	`timeline` text NOT NULL,
	`correlation_id` text NOT NULL,
	`suppressed` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `messages_customer_created_idx` ON `messages` (`customer_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `messages_customer_status_idx` ON `messages` (`customer_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `messages_customer_to_idx` ON `messages` (`customer_id`,`to_address`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `messages_status_scheduled_idx` ON `messages` (`status`,`scheduled_at`);--> statement-breakpoint
CREATE INDEX `messages_status_updated_idx` ON `messages` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `messages_instance_external_idx` ON `messages` (`instance_id`,`external_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_customer_idempotency_key_unique` ON `messages` (`customer_id`,`idempotency_key`) WHERE "messages"."idempotency_key" is not null;--> statement-breakpoint
CREATE TABLE `provider_state` (
	`instance_id` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`instance_id`, `key`),
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`name` text,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_customer_id_idx` ON `api_keys` (`customer_id`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`settings` text NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE TABLE `instances` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`provider` text NOT NULL,
	`channels` text NOT NULL,
	`config` text NOT NULL,
	`health_status` text DEFAULT 'unknown' NOT NULL,
	`health_warnings` text DEFAULT '[]' NOT NULL,
	`health_checked_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `instances_name_unique` ON `instances` (`name`);--> statement-breakpoint
CREATE TABLE `sender_numbers` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`phone_number` text NOT NULL,
	`email` text,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sender_numbers_phone_number_unique` ON `sender_numbers` (`phone_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `sender_numbers_email_unique` ON `sender_numbers` (`email`);--> statement-breakpoint
CREATE INDEX `sender_numbers_customer_id_idx` ON `sender_numbers` (`customer_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sender_numbers_one_default_per_customer` ON `sender_numbers` (`customer_id`) WHERE "sender_numbers"."is_default" = 1;