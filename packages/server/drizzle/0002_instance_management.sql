CREATE TABLE `provider_event_receipts` (
	`instance_id` text NOT NULL,
	`upstream_id` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`instance_id`, `upstream_id`),
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `provider_event_receipts_received_at_idx` ON `provider_event_receipts` (`received_at`);--> statement-breakpoint
ALTER TABLE `instances` ADD `enabled` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `instances` ADD `ingress_token` text;--> statement-breakpoint
ALTER TABLE `instances` ADD `updated_at` integer;--> statement-breakpoint
ALTER TABLE `instances` ADD `deleted_at` integer;