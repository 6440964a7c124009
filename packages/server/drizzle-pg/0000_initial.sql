CREATE TABLE "capability_cache" (
	"customer_id" text COLLATE "C" NOT NULL,
	"instance_id" text COLLATE "C" NOT NULL,
	"address" text COLLATE "C" NOT NULL,
	"availability" json NOT NULL,
	"cached_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "capability_cache_customer_id_instance_id_address_pk" PRIMARY KEY("customer_id","instance_id","address")
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"instance_id" text COLLATE "C" NOT NULL,
	"channel" text COLLATE "C" NOT NULL,
	"chat_id" text COLLATE "C",
	"owner_address" text COLLATE "C" NOT NULL,
	"is_group" boolean NOT NULL,
	"name" text COLLATE "C",
	"participants" json NOT NULL,
	"left_at" timestamp (3) with time zone,
	"read_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "facetime_calls" (
	"customer_id" text COLLATE "C" NOT NULL,
	"call_uuid" text COLLATE "C" NOT NULL,
	"instance_id" text COLLATE "C" NOT NULL,
	"receiving_address" text COLLATE "C" NOT NULL,
	"other_party" text COLLATE "C" NOT NULL,
	"is_video" boolean NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text COLLATE "C" PRIMARY KEY NOT NULL,
	"value" text COLLATE "C" NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signup_codes" (
	"message_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"receiving_address" text COLLATE "C" NOT NULL,
	"code" text COLLATE "C" NOT NULL,
	"provider" text COLLATE "C" NOT NULL,
	"from_address" text COLLATE "C" NOT NULL,
	"channel" text COLLATE "C" NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_attachments" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"message_id" text COLLATE "C" NOT NULL,
	"position" integer NOT NULL,
	"provider_id" text COLLATE "C",
	"mime_type" text COLLATE "C" NOT NULL,
	"filename" text COLLATE "C",
	"total_bytes" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"rendition_of" text COLLATE "C"
);
--> statement-breakpoint
CREATE TABLE "whatsapp_sessions" (
	"customer_id" text COLLATE "C" NOT NULL,
	"phone_number" text COLLATE "C" NOT NULL,
	"instance_id" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"jid" text COLLATE "C",
	"qr_code" text COLLATE "C",
	"disconnect_reason" text COLLATE "C",
	"last_connected_at" timestamp (3) with time zone,
	"last_disconnected_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "callback_secrets" (
	"customer_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"secret" text COLLATE "C" NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"type" text COLLATE "C" NOT NULL,
	"payload" text COLLATE "C" NOT NULL,
	"correlation_id" text COLLATE "C" NOT NULL,
	"message_id" text COLLATE "C",
	"callback_url" text COLLATE "C",
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"webhook_id" text COLLATE "C",
	"target_url" text COLLATE "C",
	"event_id" text COLLATE "C" NOT NULL,
	"event_type" text COLLATE "C" NOT NULL,
	"attempt" integer NOT NULL,
	"trigger" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"status_code" integer,
	"duration_ms" integer,
	"error" text COLLATE "C",
	"created_at" timestamp (3) with time zone NOT NULL,
	"attempted_at" timestamp (3) with time zone,
	"next_attempt_at" timestamp (3) with time zone,
	"lease_owner" text COLLATE "C",
	"lease_until" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C",
	"url" text COLLATE "C" NOT NULL,
	"events" json NOT NULL,
	"events_key" text COLLATE "C" NOT NULL,
	"secret" text COLLATE "C" NOT NULL,
	"active" boolean NOT NULL,
	"exhausted_chains" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_renditions" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"mime_type" text COLLATE "C" NOT NULL,
	"codecs" json NOT NULL,
	"total_bytes" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_attachment_data" (
	"message_id" text COLLATE "C" NOT NULL,
	"position" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "message_attachment_data_message_id_position_pk" PRIMARY KEY("message_id","position")
);
--> statement-breakpoint
CREATE TABLE "message_attempts" (
	"attempt_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"message_id" text COLLATE "C" NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"instance_id" text COLLATE "C" NOT NULL,
	"attempt" integer NOT NULL,
	"channel" text COLLATE "C" NOT NULL,
	"external_id" text COLLATE "C",
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_parts" (
	"attempt_id" text COLLATE "C" NOT NULL,
	"part_index" integer NOT NULL,
	"instance_id" text COLLATE "C" NOT NULL,
	"external_id" text COLLATE "C" NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C",
	"error_code" text COLLATE "C",
	"error_message" text COLLATE "C",
	CONSTRAINT "message_parts_attempt_id_part_index_pk" PRIMARY KEY("attempt_id","part_index")
);
--> statement-breakpoint
CREATE TABLE "message_reactions" (
	"message_id" text COLLATE "C" NOT NULL,
	"sender" text COLLATE "C" NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"reaction" text COLLATE "C" NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "message_reactions_message_id_sender_pk" PRIMARY KEY("message_id","sender")
);
--> statement-breakpoint
CREATE TABLE "message_receipts" (
	"message_id" text COLLATE "C" NOT NULL,
	"recipient" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "message_receipts_message_id_recipient_pk" PRIMARY KEY("message_id","recipient")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"direction" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"to_address" text COLLATE "C",
	"conversation_id" text COLLATE "C",
	"provider_chat_id" text COLLATE "C",
	"is_group" boolean DEFAULT false NOT NULL,
	"from_address" text COLLATE "C" NOT NULL,
	"instance_id" text COLLATE "C" NOT NULL,
	"channel" text COLLATE "C",
	"pinned_channel" text COLLATE "C",
	"text" text COLLATE "C" NOT NULL,
	"media_urls" json,
	"attachments" json NOT NULL,
	"effect" text COLLATE "C",
	"message_type" text COLLATE "C",
	"mentions" json,
	"reply_to" text COLLATE "C",
	"scheduled_at" timestamp (3) with time zone,
	"idempotency_key" text COLLATE "C",
	"callback_url" text COLLATE "C",
	"metadata" json,
	"create_contact" boolean,
	"routing_preference" json NOT NULL,
	"routing_fallback" boolean NOT NULL,
	"fallback_triggered" boolean NOT NULL,
	"external_id" text COLLATE "C",
	"error_code" text COLLATE "C",
	"error_message" text COLLATE "C",
	"retry_count" integer DEFAULT 0 NOT NULL,
	"timeline" json NOT NULL,
	"correlation_id" text COLLATE "C" NOT NULL,
	"suppressed" boolean DEFAULT false NOT NULL,
	"source" text COLLATE "C",
	"segments" integer,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "opt_outs" (
	"customer_id" text COLLATE "C" NOT NULL,
	"sender" text COLLATE "C" NOT NULL,
	"recipient" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"source" text COLLATE "C" NOT NULL,
	"keyword" text COLLATE "C",
	"channel" text COLLATE "C" NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "opt_outs_customer_id_sender_recipient_pk" PRIMARY KEY("customer_id","sender","recipient")
);
--> statement-breakpoint
CREATE TABLE "provider_event_receipts" (
	"instance_id" text COLLATE "C" NOT NULL,
	"upstream_id" text COLLATE "C" NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "provider_event_receipts_instance_id_upstream_id_pk" PRIMARY KEY("instance_id","upstream_id")
);
--> statement-breakpoint
CREATE TABLE "provider_leases" (
	"instance_id" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"holder" text COLLATE "C" NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "provider_leases_instance_id_name_pk" PRIMARY KEY("instance_id","name")
);
--> statement-breakpoint
CREATE TABLE "provider_state" (
	"instance_id" text COLLATE "C" NOT NULL,
	"key" text COLLATE "C" NOT NULL,
	"value" text COLLATE "C" NOT NULL,
	CONSTRAINT "provider_state_instance_id_key_pk" PRIMARY KEY("instance_id","key")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C",
	"prefix" text COLLATE "C" NOT NULL,
	"key_hash" text COLLATE "C" NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"settings" json NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "instances" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"provider" text COLLATE "C" NOT NULL,
	"channels" json NOT NULL,
	"config" text COLLATE "C" NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"ingress_token" text COLLATE "C",
	"health_status" text COLLATE "C" DEFAULT 'unknown' NOT NULL,
	"health_warnings" json DEFAULT '[]'::json NOT NULL,
	"health_checked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "instances_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "sender_numbers" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"instance_id" text COLLATE "C" NOT NULL,
	"phone_number" text COLLATE "C" NOT NULL,
	"email" text COLLATE "C",
	"channel_instances" json DEFAULT '{}'::json NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"sandbox_health" json,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sender_numbers_phone_number_unique" UNIQUE("phone_number"),
	CONSTRAINT "sender_numbers_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "capability_cache" ADD CONSTRAINT "capability_cache_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facetime_calls" ADD CONSTRAINT "facetime_calls_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facetime_calls" ADD CONSTRAINT "facetime_calls_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signup_codes" ADD CONSTRAINT "signup_codes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_attachments" ADD CONSTRAINT "stored_attachments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_sessions" ADD CONSTRAINT "whatsapp_sessions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_sessions" ADD CONSTRAINT "whatsapp_sessions_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_secrets" ADD CONSTRAINT "callback_secrets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachment_data" ADD CONSTRAINT "message_attachment_data_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attempts" ADD CONSTRAINT "message_attempts_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attempts" ADD CONSTRAINT "message_attempts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_parts" ADD CONSTRAINT "message_parts_attempt_id_message_attempts_attempt_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."message_attempts"("attempt_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_receipts" ADD CONSTRAINT "message_receipts_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opt_outs" ADD CONSTRAINT "opt_outs_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_event_receipts" ADD CONSTRAINT "provider_event_receipts_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_leases" ADD CONSTRAINT "provider_leases_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_state" ADD CONSTRAINT "provider_state_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sender_numbers" ADD CONSTRAINT "sender_numbers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sender_numbers" ADD CONSTRAINT "sender_numbers_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_customer_instance_chat_unique" ON "conversations" USING btree ("customer_id","instance_id","chat_id");--> statement-breakpoint
CREATE INDEX "conversations_customer_chat_idx" ON "conversations" USING btree ("customer_id","chat_id");--> statement-breakpoint
CREATE UNIQUE INDEX "facetime_calls_customer_call_unique" ON "facetime_calls" USING btree ("customer_id","call_uuid");--> statement-breakpoint
CREATE INDEX "signup_codes_customer_address_idx" ON "signup_codes" USING btree ("customer_id","receiving_address","received_at");--> statement-breakpoint
CREATE INDEX "stored_attachments_message_idx" ON "stored_attachments" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_sessions_customer_number_unique" ON "whatsapp_sessions" USING btree ("customer_id","phone_number");--> statement-breakpoint
CREATE INDEX "events_customer_created_idx" ON "events" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "events_message_id_idx" ON "events" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_target_idx" ON "webhook_deliveries" USING btree ("webhook_id","target_url","next_attempt_at","id") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_callbacks_idx" ON "webhook_deliveries" USING btree ("customer_id","id") WHERE "webhook_deliveries"."webhook_id" is null;--> statement-breakpoint
CREATE INDEX "webhooks_customer_idx" ON "webhooks" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhooks_active_url_events_unique" ON "webhooks" USING btree ("customer_id","url","events_key") WHERE "webhooks"."active";--> statement-breakpoint
CREATE INDEX "media_renditions_created_at_idx" ON "media_renditions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "message_attempts_instance_external_idx" ON "message_attempts" USING btree ("instance_id","external_id");--> statement-breakpoint
CREATE INDEX "message_attempts_message_idx" ON "message_attempts" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "message_parts_instance_external_idx" ON "message_parts" USING btree ("instance_id","external_id");--> statement-breakpoint
CREATE INDEX "messages_customer_created_idx" ON "messages" USING btree ("customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_customer_status_idx" ON "messages" USING btree ("customer_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_customer_to_idx" ON "messages" USING btree ("customer_id","to_address","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_status_scheduled_idx" ON "messages" USING btree ("status","scheduled_at");--> statement-breakpoint
CREATE INDEX "messages_status_updated_idx" ON "messages" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "messages_instance_external_idx" ON "messages" USING btree ("instance_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_customer_idempotency_key_unique" ON "messages" USING btree ("customer_id","idempotency_key") WHERE "messages"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "opt_outs_customer_updated_idx" ON "opt_outs" USING btree ("customer_id","updated_at");--> statement-breakpoint
CREATE INDEX "provider_event_receipts_received_at_idx" ON "provider_event_receipts" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "api_keys_customer_id_idx" ON "api_keys" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "sender_numbers_customer_id_idx" ON "sender_numbers" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sender_numbers_one_default_per_customer" ON "sender_numbers" USING btree ("customer_id") WHERE "sender_numbers"."is_default";