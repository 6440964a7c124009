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