CREATE TABLE "spread_books" (
	"symbol" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"seq" smallint NOT NULL,
	"binance_bid" double precision NOT NULL,
	"binance_ask" double precision NOT NULL,
	"binance_age_ms" integer NOT NULL,
	"deriv_bid" double precision NOT NULL,
	"deriv_ask" double precision NOT NULL,
	"deriv_age_ms" integer NOT NULL,
	"dense" boolean NOT NULL,
	CONSTRAINT "spread_books_symbol_at_seq_pk" PRIMARY KEY("symbol","at","seq")
);
--> statement-breakpoint
CREATE INDEX "spread_books_at_idx" ON "spread_books" USING btree ("at");
