CREATE TABLE "number_restrictions" (
	"number_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"strikes" text COLLATE "C" NOT NULL,
	"restricted_until" bigint,
	"code" text COLLATE "C",
	"reason" text COLLATE "C",
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "send_policies" (
	"scope" text COLLATE "C" NOT NULL,
	"scope_id" text COLLATE "C" NOT NULL,
	"policy" text COLLATE "C" NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "send_policies_scope_scope_id_pk" PRIMARY KEY("scope","scope_id")
);
--> statement-breakpoint
CREATE TABLE "send_usage" (
	"message_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"number_id" text COLLATE "C" NOT NULL,
	"channel" text COLLATE "C" NOT NULL,
	"day" text COLLATE "C" NOT NULL,
	"recipient" text COLLATE "C" NOT NULL,
	"cold" integer NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "send_usage_days" (
	"number_id" text COLLATE "C" NOT NULL,
	"channel" text COLLATE "C" NOT NULL,
	"day" text COLLATE "C" NOT NULL,
	"sends" integer NOT NULL,
	"cold_contacts" integer NOT NULL,
	CONSTRAINT "send_usage_days_number_id_channel_day_pk" PRIMARY KEY("number_id","channel","day")
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "hold" json;--> statement-breakpoint
CREATE INDEX "send_usage_number_recipient_idx" ON "send_usage" USING btree ("number_id","recipient");