CREATE TABLE "spread_samples" (
	"symbol" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"binance" double precision NOT NULL,
	"deriv" double precision NOT NULL,
	"spread" double precision NOT NULL,
	CONSTRAINT "spread_samples_symbol_at_pk" PRIMARY KEY("symbol","at")
);
--> statement-breakpoint
CREATE TABLE "spread_minutes" (
	"symbol" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"samples" integer NOT NULL,
	"binance" double precision NOT NULL,
	"deriv" double precision NOT NULL,
	"spread" double precision NOT NULL,
	"spread_low" double precision NOT NULL,
	"spread_high" double precision NOT NULL,
	CONSTRAINT "spread_minutes_symbol_at_pk" PRIMARY KEY("symbol","at")
);
--> statement-breakpoint
CREATE INDEX "spread_samples_at_idx" ON "spread_samples" USING btree ("at");--> statement-breakpoint
CREATE INDEX "spread_minutes_at_idx" ON "spread_minutes" USING btree ("at");