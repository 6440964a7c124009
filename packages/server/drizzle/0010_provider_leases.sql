CREATE TABLE `provider_leases` (
	`instance_id` text NOT NULL,
	`name` text NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`instance_id`, `name`),
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE no action
);
