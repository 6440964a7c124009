CREATE TABLE `unrouted_inbound` (
	`id` text PRIMARY KEY NOT NULL,
	`instance_id` text NOT NULL,
	`address` text NOT NULL,
	`kind` text NOT NULL,
	`reason` text NOT NULL,
	`from_address` text,
	`channel` text NOT NULL,
	`payload` text NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `unrouted_inbound_address_idx` ON `unrouted_inbound` (`instance_id`,`address`,`received_at`);--> statement-breakpoint
CREATE INDEX `unrouted_inbound_received_idx` ON `unrouted_inbound` (`received_at`);