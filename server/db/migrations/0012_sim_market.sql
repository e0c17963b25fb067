-- The simulated market's state per symbol, so that a restart or a failover continues the price path (no jump).
CREATE TABLE "sim_market" (
	"symbol" text PRIMARY KEY NOT NULL,
	"state" jsonb NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL
);
