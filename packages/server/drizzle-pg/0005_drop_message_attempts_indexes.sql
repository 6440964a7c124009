DROP INDEX "message_attempts_instance_external_idx";--> statement-breakpoint
DROP INDEX "message_attempts_message_idx";