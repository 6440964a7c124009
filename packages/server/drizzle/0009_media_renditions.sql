CREATE TABLE `media_renditions` (
	`id` text PRIMARY KEY NOT NULL,
	`mime_type` text NOT NULL,
	`codecs` text NOT NULL,
	`total_bytes` integer NOT NULL,
	`data` blob NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `media_renditions_created_at_idx` ON `media_renditions` (`created_at`);--> statement-breakpoint
ALTER TABLE `stored_attachments` ADD `rendition_of` text;