CREATE TABLE "contact_erasures" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"customer_id" text COLLATE "C",
	"address_hash" text COLLATE "C" NOT NULL,
	"requested_by" text COLLATE "C" NOT NULL,
	"counts" json NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_retention" (
	"customer_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"event_log_ms" bigint,
	"delivery_log_ms" bigint,
	"inbound_attachments_ms" bigint,
	"message_content_ms" bigint,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "redacted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "contact_erasures" ADD CONSTRAINT "contact_erasures_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_retention" ADD CONSTRAINT "customer_retention_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_erasures_customer_idx" ON "contact_erasures" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "stored_attachments_customer_created_idx" ON "stored_attachments" USING btree ("customer_id","created_at");