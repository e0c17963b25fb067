// The aggregates behind a user's statistics, computed by the database (never by loading a user's trades into
// memory). Sums stay decimal strings; server/engine/figures.ts turns them into the contract's figures.
import { eq, inArray, sql } from 'drizzle-orm';
import { FINISHED_STATUSES, type Currency } from '../../../contract/domain';
import { DECIDED_TRADE, WINNING_TRADE } from '../../../contract/figures';
import type { Db } from '../client';
import { balances } from '../schema/balances';
import { trades } from '../schema/trades';

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

export async function tradeAggregates(db: Db, userId: string): Promise<TradeAggregates> {
  // The contract's rules (contract/figures.ts), as SQL.
  const finished = inArray(trades.status, [...FINISHED_STATUSES]);
  const won = sql`${inArray(trades.status, [...WINNING_TRADE.statuses])} and ${trades.actualProfit} > ${WINNING_TRADE.profitAbove}`;
  const decided = sql`${inArray(trades.status, [...DECIDED_TRADE.statuses])} and ${trades.actualProfit} <> ${DECIDED_TRADE.profitNot}`;
  const [row] = await db
    .select({
      totalTrades: sql<number>`count(*)::int`,
      successfulTrades: sql<number>`(count(*) filter (where ${trades.status} = 'completed'))::int`,
      failedTrades: sql<number>`(count(*) filter (where ${trades.status} = 'failed'))::int`,
      winningTrades: sql<number>`(count(*) filter (where ${won}))::int`,
      decidedTrades: sql<number>`(count(*) filter (where ${decided}))::int`,
      totalProfit: sql<string>`coalesce(sum(${trades.actualProfit}) filter (where ${won}), 0)::text`,
      netProfit: sql<string>`coalesce(sum(${trades.actualProfit}) filter (where ${finished}), 0)::text`,
    })
    .from(trades)
    .where(eq(trades.userId, userId));
  return {
    totalTrades: Number(row?.totalTrades ?? 0),
    successfulTrades: Number(row?.successfulTrades ?? 0),
    failedTrades: Number(row?.failedTrades ?? 0),
    winningTrades: Number(row?.winningTrades ?? 0),
    decidedTrades: Number(row?.decidedTrades ?? 0),
    totalProfit: row?.totalProfit ?? '0',
    netProfit: row?.netProfit ?? '0',
  };
}

export async function holdings(db: Db, userId: string): Promise<Holdings> {
  const sumOf = (currency: string) => sql<string>`coalesce(sum(${balances.amount}) filter (where ${balances.currency} = ${currency}), 0)::text`;
  const [row] = await db
    .select({ USDT: sumOf('USDT'), BTC: sumOf('BTC'), ETH: sumOf('ETH') })
    .from(balances)
    .where(eq(balances.userId, userId));
  return { USDT: row?.USDT ?? '0', BTC: row?.BTC ?? '0', ETH: row?.ETH ?? '0' };
}
