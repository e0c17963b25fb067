// Trading statistics computed by the database in aggregates (never by loading a user's trades into memory).
import Decimal from 'decimal.js';
import { eq, sql } from 'drizzle-orm';
import type { SymbolId } from '../../../contract/domain';
import type { Stats } from '../../../contract/entities';
import type { Db } from '../client';
import { balances } from '../schema/balances';
import { trades } from '../schema/trades';

/** Mid prices in USDT; null while unknown. Satisfied by the app's price book. */
export interface MidPrices {
  mid(symbol: SymbolId): number | null;
}

export interface TradeAggregates {
  totalTrades: number;
  successfulTrades: number;
  failedTrades: number;
  winningTrades: number;
  /** Decimal strings: sums of numeric columns, exact. */
  totalProfit: string;
  netProfit: string;
}

/** Holdings summed over both venues, per currency, as decimal strings. */
export interface Holdings {
  USDT: string;
  BTC: string;
  ETH: string;
}

export async function tradeAggregates(db: Db, userId: string): Promise<TradeAggregates> {
  const completed = sql`${trades.status} = 'completed'`;
  const won = sql`${completed} and ${trades.actualProfit} > 0`;
  const [row] = await db
    .select({
      totalTrades: sql<number>`count(*)::int`,
      successfulTrades: sql<number>`(count(*) filter (where ${completed}))::int`,
      failedTrades: sql<number>`(count(*) filter (where ${trades.status} = 'failed'))::int`,
      winningTrades: sql<number>`(count(*) filter (where ${won}))::int`,
      totalProfit: sql<string>`coalesce(sum(${trades.actualProfit}) filter (where ${won}), 0)::text`,
      netProfit: sql<string>`coalesce(sum(${trades.actualProfit}) filter (where ${completed}), 0)::text`,
    })
    .from(trades)
    .where(eq(trades.userId, userId));
  return {
    totalTrades: Number(row?.totalTrades ?? 0),
    successfulTrades: Number(row?.successfulTrades ?? 0),
    failedTrades: Number(row?.failedTrades ?? 0),
    winningTrades: Number(row?.winningTrades ?? 0),
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

/** Both venues' amounts added per currency. */
export function sumVenues(perVenue: Record<'binance' | 'deriv', Holdings>): Holdings {
  const add = (c: keyof Holdings) => new Decimal(perVenue.binance[c]).plus(perVenue.deriv[c]).toString();
  return { USDT: add('USDT'), BTC: add('BTC'), ETH: add('ETH') };
}

/** USDT plus each coin at its mid price; a coin counts 0 while its price is unknown. */
export function valueOf(held: Holdings, prices: MidPrices): Decimal {
  const coin = (amount: string, symbol: SymbolId) => {
    const mid = prices.mid(symbol);
    return mid === null || !Number.isFinite(mid) ? new Decimal(0) : new Decimal(amount).times(mid);
  };
  return new Decimal(held.USDT).plus(coin(held.BTC, 'BTC/USDT')).plus(coin(held.ETH, 'ETH/USDT'));
}

/** Percent of completed trades that made money; 0 when none completed. */
export function winRateOf(agg: Pick<TradeAggregates, 'winningTrades' | 'successfulTrades'>): number {
  return agg.successfulTrades === 0 ? 0 : new Decimal(agg.winningTrades).times(100).dividedBy(agg.successfulTrades).toNumber();
}

export function toStats(agg: TradeAggregates, held: Holdings, prices: MidPrices): Stats {
  return {
    totalTrades: agg.totalTrades,
    successfulTrades: agg.successfulTrades,
    failedTrades: agg.failedTrades,
    totalProfit: Number(agg.totalProfit),
    netProfit: Number(agg.netProfit),
    winRate: winRateOf(agg),
    totalValue: valueOf(held, prices).toNumber(),
  };
}

/** The contract's Stats for one user: one aggregate over the trades, one over the balances. */
export async function computeStats(db: Db, userId: string, prices: MidPrices): Promise<Stats> {
  const [agg, held] = await Promise.all([tradeAggregates(db, userId), holdings(db, userId)]);
  return toStats(agg, held, prices);
}
