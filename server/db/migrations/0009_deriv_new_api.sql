-- Deriv's new API beside the legacy one: the one encrypted token column holds either kind of token; beside it, what
-- Deriv said about that token (which API, the Options accounts it reaches, when) and the account chosen to trade.
ALTER TABLE "venue_credentials" ADD COLUMN "deriv_api" text;--> statement-breakpoint
ALTER TABLE "venue_credentials" ADD COLUMN "deriv_accounts" jsonb;--> statement-breakpoint
ALTER TABLE "venue_credentials" ADD COLUMN "deriv_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "venue_credentials" ADD COLUMN "deriv_account_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "venue_credentials" ADD CONSTRAINT "venue_credentials_deriv_api_check" CHECK ("deriv_api" IN ('new', 'legacy'));
