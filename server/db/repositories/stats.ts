// The aggregates behind a user's statistics: the trade figures the database keeps per user as trades change (never
// aggregated per request, never by loading a user's trades into memory), and the holdings. Sums stay decimal strings;
// server/engine/figures.ts turns them into the contract's figures.
import { eq, sql } from 'drizzle-orm';
import type { Currency } from '../../../contract/domain';
import type { Db } from '../client';
import { balances } from '../schema/balances';
import { tradeFigures } from '../schema/trade-figures';

export interface TradeAggregates {
  totalTrades: number;
  successfulTrades: number;
  failedTrades: number;
  winningTrades: number;
  /** Finished trades that moved money (won or lost), the base of the win rate. */
  decidedTrades: number;
  /** Decimal strings: sums of numeric columns, exact. */
  totalProfit: string;
  netProfit: string;
}

/** Holdings summed over both venues, per currency, as decimal strings. */
export type Holdings = Record<Currency, string>;

/** A user without trades has no row: all zeros. */
const NO_TRADES: TradeAggregates = Object.freeze({
  totalTrades: 0,
  successfulTrades: 0,
  failedTrades: 0,
  winningTrades: 0,
  decidedTrades: 0,
  totalProfit: '0',
  netProfit: '0',
});

/** The user's kept figures (table trade_figures, maintained by a trigger on trades): one primary-key read. */
export async function tradeAggregates(db: Db, userId: string): Promise<TradeAggregates> {
  const [row] = await db
    .select({
      totalTrades: tradeFigures.totalTrades,
      successfulTrades: tradeFigures.successfulTrades,
      failedTrades: tradeFigures.failedTrades,
      winningTrades: tradeFigures.winningTrades,
      decidedTrades: tradeFigures.decidedTrades,
      totalProfit: tradeFigures.totalProfit,
      netProfit: tradeFigures.netProfit,
    })
    .from(tradeFigures)
    .where(eq(tradeFigures.userId, userId));
  return row ?? NO_TRADES;
}

/**
 * Recomputes every user's kept figures from the trades, by the same rules as the trigger (trade_figures_contribution,
 * migration 0006), in one statement. For bulk loads that ran with the trigger disabled (bench/lib/seed.ts); the live
 * paths never need it.
 */
export async function recountTradeFigures(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM trade_figures`);
    await tx.execute(sql`
      INSERT INTO trade_figures (user_id, total_trades, successful_trades, failed_trades, winning_trades, decided_trades, total_profit, net_profit)
      SELECT t.user_id, sum(c.total), sum(c.successful), sum(c.failed), sum(c.winning), sum(c.decided), sum(c.total_profit), sum(c.net_profit)
      FROM trades AS t, LATERAL trade_figures_contribution(t.status, t.actual_profit) AS c
      GROUP BY t.user_id`);
  });
}

export async function holdings(db: Db, userId: string): Promise<Holdings> {
  // Every currency held (USDT and each pair's coin), summed over the venues; USDT, BTC and ETH always answered.
  const rows = await db
    .select({ currency: balances.currency, amount: sql<string>`sum(${balances.amount})::text` })
    .from(balances)
    .where(eq(balances.userId, userId))
    .groupBy(balances.currency);
  const held: Holdings = { USDT: '0', BTC: '0', ETH: '0' };
  for (const row of rows) held[row.currency] = row.amount;
  return held;
}
