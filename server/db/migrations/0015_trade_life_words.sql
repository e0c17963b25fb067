-- One vocabulary for a trade's life (contract/trade-life.ts): a trade that held a leg and was closed early (by its
-- user, by Stop & flatten, at max loss, by an admin) is closed ('completed') with its realised P&L; 'cancelled' is
-- kept only for trades no leg of which was ever filled. The figures' trigger (0006) moves each changed row's
-- contribution, so the per-user figures follow. Close reasons written before the vocabulary take its words.
UPDATE "trades" SET "status" = 'completed'
WHERE "status" = 'cancelled'
  AND EXISTS (SELECT 1 FROM jsonb_array_elements("legs") AS l WHERE jsonb_typeof(l -> 'open') = 'object');--> statement-breakpoint
UPDATE "trades" SET "reason" = CASE "reason"
  WHEN 'cancelled by user' THEN 'closed by you'
  WHEN 'account deactivated' THEN 'closed by an admin'
  ELSE "reason"
END
WHERE "reason" IN ('cancelled by user', 'account deactivated');--> statement-breakpoint
UPDATE "trades" SET "reason" = 'stopped out by the venue: ' || "reason"
WHERE "reason" LIKE 'Deriv stopped the contract out%' OR "reason" LIKE 'Deriv sold the contract%';
