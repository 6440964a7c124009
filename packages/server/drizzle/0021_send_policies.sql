CREATE TABLE `number_restrictions` (
	`number_id` text PRIMARY KEY NOT NULL,
	`strikes` text NOT NULL,
	`restricted_until` integer,
	`code` text,
	`reason` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `send_policies` (
	`scope` text NOT NULL,
	`scope_id` text NOT NULL,
	`policy` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `scope_id`)
);
--> statement-breakpoint
CREATE TABLE `send_usage` (
	`message_id` text PRIMARY KEY NOT NULL,
	`number_id` text NOT NULL,
	`channel` text NOT NULL,
	`day` text NOT NULL,
	`recipient` text NOT NULL,
	`cold` integer NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `send_usage_number_recipient_idx` ON `send_usage` (`number_id`,`recipient`);--> statement-breakpoint
CREATE TABLE `send_usage_days` (
	`number_id` text NOT NULL,
	`channel` text NOT NULL,
	`day` text NOT NULL,
	`sends` integer NOT NULL,
	`cold_contacts` integer NOT NULL,
	PRIMARY KEY(`number_id`, `channel`, `day`)
);
--> statement-breakpoint
ALTER TABLE `messages` ADD `hold` text;