CREATE TABLE "trade_figures" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"total_trades" integer DEFAULT 0 NOT NULL,
	"successful_trades" integer DEFAULT 0 NOT NULL,
	"failed_trades" integer DEFAULT 0 NOT NULL,
	"winning_trades" integer DEFAULT 0 NOT NULL,
	"decided_trades" integer DEFAULT 0 NOT NULL,
	"total_profit" numeric DEFAULT '0' NOT NULL,
	"net_profit" numeric DEFAULT '0' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trade_figures" ADD CONSTRAINT "trade_figures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The figures are kept by the database itself, in the transaction that writes the trade, whatever path writes it
-- (engine, cancels, recovery, admin deletes, a user's deletion cascading): each row change subtracts the old row's
-- contribution and adds the new one's. The contract's rules (contract/figures.ts: FINISHED_STATUSES, WINNING_TRADE,
-- DECIDED_TRADE) are stated once here, in trade_figures_contribution; tests/server/api/trade-figures.test.ts pins them
-- to the contract's functions over random trade histories. The same SQL runs on PGlite and PostgreSQL.
-- PL/pgSQL rather than SQL: its plan is cached per session, where a SQL function's body was planned again on every
-- call (about 0.3 ms, twice per trade update).
CREATE FUNCTION trade_figures_contribution(
  p_status text, p_profit numeric,
  OUT total integer, OUT successful integer, OUT failed integer, OUT winning integer, OUT decided integer,
  OUT total_profit numeric, OUT net_profit numeric
) LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  finished boolean := p_status IN ('completed', 'failed', 'cancelled');
BEGIN
  total := 1;
  successful := (p_status = 'completed')::integer;
  failed := (p_status = 'failed')::integer;
  winning := (finished AND p_profit > 0)::integer;
  decided := (finished AND p_profit <> 0)::integer;
  total_profit := CASE WHEN finished AND p_profit > 0 THEN p_profit ELSE 0 END;
  net_profit := CASE WHEN finished THEN p_profit ELSE 0 END;
END;
$$;--> statement-breakpoint
-- Subtracting updates the row in place (a user being deleted has none left to recreate); adding is an upsert, whose
-- increments are atomic, so two transactions finishing trades of one user at once both count.
CREATE FUNCTION trades_keep_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  c record;
  n record;
BEGIN
  -- A trade changing status or profit (the common update) moves its user's row once, by the difference.
  IF TG_OP = 'UPDATE' AND OLD.user_id = NEW.user_id THEN
    SELECT * INTO c FROM trade_figures_contribution(OLD.status, OLD.actual_profit);
    SELECT * INTO n FROM trade_figures_contribution(NEW.status, NEW.actual_profit);
    UPDATE trade_figures SET
      successful_trades = successful_trades + n.successful - c.successful,
      failed_trades = failed_trades + n.failed - c.failed,
      winning_trades = winning_trades + n.winning - c.winning,
      decided_trades = decided_trades + n.decided - c.decided,
      total_profit = total_profit + n.total_profit - c.total_profit,
      net_profit = net_profit + n.net_profit - c.net_profit
    WHERE user_id = NEW.user_id;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT * INTO c FROM trade_figures_contribution(OLD.status, OLD.actual_profit);
    UPDATE trade_figures SET
      total_trades = total_trades - c.total,
      successful_trades = successful_trades - c.successful,
      failed_trades = failed_trades - c.failed,
      winning_trades = winning_trades - c.winning,
      decided_trades = decided_trades - c.decided,
      total_profit = total_profit - c.total_profit,
      net_profit = net_profit - c.net_profit
    WHERE user_id = OLD.user_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    SELECT * INTO c FROM trade_figures_contribution(NEW.status, NEW.actual_profit);
    INSERT INTO trade_figures AS f (user_id, total_trades, successful_trades, failed_trades, winning_trades, decided_trades, total_profit, net_profit)
    VALUES (NEW.user_id, c.total, c.successful, c.failed, c.winning, c.decided, c.total_profit, c.net_profit)
    ON CONFLICT (user_id) DO UPDATE SET
      total_trades = f.total_trades + excluded.total_trades,
      successful_trades = f.successful_trades + excluded.successful_trades,
      failed_trades = f.failed_trades + excluded.failed_trades,
      winning_trades = f.winning_trades + excluded.winning_trades,
      decided_trades = f.decided_trades + excluded.decided_trades,
      total_profit = f.total_profit + excluded.total_profit,
      net_profit = f.net_profit + excluded.net_profit;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION trades_clear_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM trade_figures;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER trades_keep_figures AFTER INSERT OR DELETE ON "trades" FOR EACH ROW EXECUTE FUNCTION trades_keep_figures();--> statement-breakpoint
-- Most updates of a trade (its legs, its timestamps) leave its figures as they were and skip the trigger.
CREATE TRIGGER trades_keep_figures_on_update AFTER UPDATE OF "status", "actual_profit", "user_id" ON "trades" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.actual_profit IS DISTINCT FROM NEW.actual_profit OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION trades_keep_figures();--> statement-breakpoint
CREATE TRIGGER trades_clear_figures AFTER TRUNCATE ON "trades" FOR EACH STATEMENT EXECUTE FUNCTION trades_clear_figures();--> statement-breakpoint
-- The figures of the trades already stored, by the same rules.
INSERT INTO trade_figures (user_id, total_trades, successful_trades, failed_trades, winning_trades, decided_trades, total_profit, net_profit)
SELECT t.user_id, sum(c.total), sum(c.successful), sum(c.failed), sum(c.winning), sum(c.decided), sum(c.total_profit), sum(c.net_profit)
FROM trades AS t, LATERAL trade_figures_contribution(t.status, t.actual_profit) AS c
GROUP BY t.user_id;
