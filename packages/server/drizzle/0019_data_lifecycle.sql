CREATE TABLE `contact_erasures` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text,
	`address_hash` text NOT NULL,
	`requested_by` text NOT NULL,
	`counts` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `contact_erasures_customer_idx` ON `contact_erasures` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `customer_retention` (
	`customer_id` text PRIMARY KEY NOT NULL,
	`event_log_ms` integer,
	`delivery_log_ms` integer,
	`inbound_attachments_ms` integer,
	`message_content_ms` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `messages` ADD `redacted_at` integer;--> statement-breakpoint
CREATE INDEX `stored_attachments_customer_created_idx` ON `stored_attachments` (`customer_id`,`created_at`);