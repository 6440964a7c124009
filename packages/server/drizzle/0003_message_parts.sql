CREATE TABLE `message_parts` (
	`attempt_id` text NOT NULL,
	`part_index` integer NOT NULL,
	`instance_id` text NOT NULL,
	`external_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text,
	`error_code` text,
	`error_message` text,
	PRIMARY KEY(`attempt_id`, `part_index`),
	FOREIGN KEY (`attempt_id`) REFERENCES `message_attempts`(`attempt_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `message_parts_instance_external_idx` ON `message_parts` (`instance_id`,`external_id`);