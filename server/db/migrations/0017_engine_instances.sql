-- The server instances on this database and the engine shards each trades (server/db/schema/engine-instances.ts).
CREATE TABLE IF NOT EXISTS "engine_instances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"engine" boolean NOT NULL,
	"shards" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"shard_count" integer DEFAULT 1 NOT NULL,
	"lock_pid" integer,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
