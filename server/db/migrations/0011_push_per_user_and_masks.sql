-- Push subscriptions belong to their user: the same endpoint saved by two users is two rows, and saving it never moves
-- another user's row. At most 10 devices a user: the newest are kept. (server/db/schema/push-subscriptions.ts)
DROP INDEX IF EXISTS "push_subscriptions_endpoint_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "push_subscriptions_user_idx";--> statement-breakpoint
DELETE FROM "push_subscriptions" WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY "user_id" ORDER BY "created_at" DESC, "id" DESC) AS "rank"
    FROM "push_subscriptions"
  ) AS "ranked" WHERE "rank" > 10
);--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_user_endpoint_idx" ON "push_subscriptions" USING btree ("user_id","endpoint");--> statement-breakpoint
-- No part of a secret is shown any more (only the public API key's last 4 characters): what was kept of the Binance
-- secret key and the Deriv token for display goes.
UPDATE "venue_credentials" SET "binance_secret_key_last4" = NULL, "deriv_token_last4" = NULL;
