ALTER TABLE "users" ADD COLUMN "trading_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "trading_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "trading_pause_reason" text;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "trading_halted_at";--> statement-breakpoint
-- Users trading at the upgrade start their maxLoss window now: the history before it was judged by the old rule.
UPDATE "users" SET "trading_enabled_at" = now() WHERE "trading_enabled" = true;
