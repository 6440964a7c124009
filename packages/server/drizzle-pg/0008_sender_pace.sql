CREATE TABLE "sender_pace" (
	"instance_id" text COLLATE "C" NOT NULL,
	"sender" text COLLATE "C" NOT NULL,
	"book" text COLLATE "C" NOT NULL,
	"next_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sender_pace_instance_id_sender_book_pk" PRIMARY KEY("instance_id","sender","book")
);
