CREATE TABLE "number_pauses" (
	"number_id" text COLLATE "C" NOT NULL,
	"channel" text COLLATE "C" NOT NULL,
	"paused_at" bigint,
	"reason" text COLLATE "C",
	"resumed_at" bigint,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "number_pauses_number_id_channel_pk" PRIMARY KEY("number_id","channel")
);
