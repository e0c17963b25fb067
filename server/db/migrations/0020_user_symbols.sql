-- The pairs each user trades (an array of pair names such as "BTC/USDT"); NULL = every pair the server trades.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "symbols" jsonb;
