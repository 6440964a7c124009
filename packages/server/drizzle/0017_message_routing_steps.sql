CREATE TABLE `message_routing_steps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`at` integer NOT NULL,
	`channel` text,
	`instance_id` text,
	`decision` text NOT NULL,
	`reason` text NOT NULL,
	`detail` text NOT NULL,
	`code` text,
	`capability` text,
	`wait_ms` integer,
	`external_id` text,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `message_routing_steps_message_idx` ON `message_routing_steps` (`message_id`,`id`);