-- The history sync asks for the trades changed since its cursor, (updated_at, id) order per user
-- (server/db/repositories/trade-changes.ts): without this index each such request would sort all of the user's trades.
CREATE INDEX IF NOT EXISTS "trades_user_updated_idx" ON "trades" USING btree ("user_id","updated_at","id");
