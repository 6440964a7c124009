CREATE TABLE "message_routing_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" text COLLATE "C" NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"attempt" integer NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"channel" text COLLATE "C",
	"instance_id" text COLLATE "C",
	"decision" text COLLATE "C" NOT NULL,
	"reason" text COLLATE "C" NOT NULL,
	"detail" text COLLATE "C" NOT NULL,
	"code" text COLLATE "C",
	"capability" json,
	"wait_ms" integer,
	"external_id" text COLLATE "C"
);
--> statement-breakpoint
ALTER TABLE "message_routing_steps" ADD CONSTRAINT "message_routing_steps_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_routing_steps" ADD CONSTRAINT "message_routing_steps_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_routing_steps_message_idx" ON "message_routing_steps" USING btree ("message_id","id");