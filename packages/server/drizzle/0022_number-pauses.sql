CREATE TABLE `number_pauses` (
	`number_id` text NOT NULL,
	`channel` text NOT NULL,
	`paused_at` integer,
	`reason` text,
	`resumed_at` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`number_id`, `channel`)
);
