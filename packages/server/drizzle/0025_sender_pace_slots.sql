CREATE TABLE `sender_pace_slots` (
	`instance_id` text NOT NULL,
	`sender` text NOT NULL,
	`message_id` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`instance_id`, `sender`, `message_id`)
);
