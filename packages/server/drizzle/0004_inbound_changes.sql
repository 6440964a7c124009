CREATE TABLE `message_receipts` (
	`message_id` text NOT NULL,
	`recipient` text NOT NULL,
	`status` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`message_id`, `recipient`),
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `conversations` ADD `read_at` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `source` text;