CREATE TABLE `sender_pace` (
	`instance_id` text NOT NULL,
	`sender` text NOT NULL,
	`book` text NOT NULL,
	`next_at` integer NOT NULL,
	PRIMARY KEY(`instance_id`, `sender`, `book`)
);
