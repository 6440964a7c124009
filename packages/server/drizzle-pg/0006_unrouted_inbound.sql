CREATE TABLE "unrouted_inbound" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"instance_id" text COLLATE "C" NOT NULL,
	"address" text COLLATE "C" NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"reason" text COLLATE "C" NOT NULL,
	"from_address" text COLLATE "C",
	"channel" text COLLATE "C" NOT NULL,
	"payload" text COLLATE "C" NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "unrouted_inbound" ADD CONSTRAINT "unrouted_inbound_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unrouted_inbound_address_idx" ON "unrouted_inbound" USING btree ("instance_id","address","received_at");--> statement-breakpoint
CREATE INDEX "unrouted_inbound_received_idx" ON "unrouted_inbound" USING btree ("received_at");