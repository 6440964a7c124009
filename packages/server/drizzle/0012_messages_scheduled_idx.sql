DROP INDEX `messages_status_scheduled_idx`;--> statement-breakpoint
CREATE INDEX `messages_scheduled_idx` ON `messages` (`status`,`scheduled_at`,`id`) WHERE "messages"."status" = 'scheduled';