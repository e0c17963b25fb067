-- The kind of a stop is a fact stored with the user, not parsed from the reason text: 'off' (by the user), 'paused'
-- (repeated failed trades), 'max-loss', 'flattened' (Stop & flatten), 'admin' (an admin closed the account's trades).
-- NULL exactly while trading is enabled.
ALTER TABLE "users" ADD COLUMN "trading_stop" text DEFAULT 'off';--> statement-breakpoint
UPDATE "users" SET "trading_stop" = CASE
  WHEN "trading_enabled" THEN NULL
  WHEN "trading_paused_at" IS NOT NULL AND "trading_pause_reason" LIKE 'Max loss reached%' THEN 'max-loss'
  WHEN "trading_paused_at" IS NOT NULL THEN 'paused'
  ELSE 'off'
END;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_trading_stop_kind" CHECK ("trading_stop" IN ('off', 'paused', 'max-loss', 'flattened', 'admin'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_trading_stop_matches_switch" CHECK (("trading_stop" IS NULL) = "trading_enabled");--> statement-breakpoint
-- A queued close names why the trades close: the user's Stop & flatten, or an admin closing the account's trades.
ALTER TABLE "flatten_requests" ADD COLUMN "reason" text DEFAULT 'stop & flatten' NOT NULL;
