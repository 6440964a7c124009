CREATE TABLE `opt_outs` (
	`customer_id` text NOT NULL,
	`sender` text NOT NULL,
	`recipient` text NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`keyword` text,
	`channel` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`customer_id`, `sender`, `recipient`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `opt_outs_customer_updated_idx` ON `opt_outs` (`customer_id`,`updated_at`);--> statement-breakpoint
ALTER TABLE `messages` ADD `segments` integer;--> statement-breakpoint
UPDATE `customers` SET `settings` = json_set(`settings`, '$.optOutHandling', 'gateway') WHERE json_extract(`settings`, '$.optOutHandling') IS NULL;