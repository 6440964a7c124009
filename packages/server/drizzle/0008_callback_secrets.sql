CREATE TABLE `callback_secrets` (
	`customer_id` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_callbacks_idx` ON `webhook_deliveries` (`customer_id`,`id`) WHERE "webhook_deliveries"."webhook_id" is null;