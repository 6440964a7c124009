CREATE TABLE "sender_pace_slots" (
	"instance_id" text COLLATE "C" NOT NULL,
	"sender" text COLLATE "C" NOT NULL,
	"message_id" text COLLATE "C" NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sender_pace_slots_instance_id_sender_message_id_pk" PRIMARY KEY("instance_id","sender","message_id")
);
