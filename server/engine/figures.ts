// A user's figures, one definition each: the contract's Stats, and the Balances wire object (holdings of both venues
// with the trading figures beside them). The engine's balance_updated / stats_updated and the HTTP answers
// (GET /balances, POST /exchanges/sync, the stats routes) all come from here.
import Decimal from 'decimal.js';
import type { VenueId } from '../../contract/domain';
import { PAIR_CATALOGUE } from '../../contract/pairs';
import type { Balances, Stats, VenueBalances } from '../../contract/entities';
import { winRate } from '../../contract/figures';
import type { Db } from '../db/client';
import type { UserBalances, VenueAmounts } from '../db/repositories/balances';
import { holdings, tradeAggregates, type Holdings, type TradeAggregates } from '../db/repositories/stats';
import type { PriceBook } from './ports';

/** Both venues' amounts added per currency. */
export function sumVenues(perVenue: Record<VenueId, VenueAmounts>): Holdings {
  const currencies = new Set([...Object.keys(perVenue.binance), ...Object.keys(perVenue.deriv)]);
  const add = (c: string) => new Decimal(perVenue.binance[c] ?? 0).plus(perVenue.deriv[c] ?? 0).toString();
  return Object.fromEntries([...currencies].map((c) => [c, add(c)]));
}

/**
 * USDT plus each coin at its pair's mid price; a coin counts 0 while its price is unknown (a pair the server does not
 * trade has none).
 */
export function valueOf(held: Holdings, prices: PriceBook): Decimal {
  let total = new Decimal(held['USDT'] ?? 0);
  for (const pair of PAIR_CATALOGUE) {
    const amount = held[pair.base];
    if (amount === undefined) continue;
    const mid = prices.mid(pair.symbol);
    if (mid !== null && Number.isFinite(mid)) total = total.plus(new Decimal(amount).times(mid));
  }
  return total;
}

export function statsOf(agg: TradeAggregates, held: Holdings, prices: PriceBook): Stats {
  return {
    totalTrades: agg.totalTrades,
    // "Successful" means won (contract/figures.ts): the win rate's numerator, never trades that merely completed.
    successfulTrades: agg.winningTrades,
    failedTrades: agg.failedTrades,
    totalProfit: Number(agg.totalProfit),
    netProfit: Number(agg.netProfit),
    winRate: winRate(agg.winningTrades, agg.decidedTrades),
    decidedTrades: agg.decidedTrades,
    totalValue: valueOf(held, prices).toNumber(),
  };
}

/** Decimal strings become JSON numbers here and only here. */
const venueBalances = (amounts: VenueAmounts): VenueBalances =>
  Object.fromEntries(Object.entries(amounts).map(([c, amount]) => [c, Number(amount)]));

export function balancesOf(amounts: Record<VenueId, VenueAmounts>, stats: Stats, updatedAt: Date): Balances {
  return {
    binance: venueBalances(amounts.binance),
    deriv: venueBalances(amounts.deriv),
    netProfit: stats.netProfit,
    winRate: stats.winRate,
    decidedTrades: stats.decidedTrades,
    totalTrades: stats.totalTrades,
    successfulTrades: stats.successfulTrades,
    failedTrades: stats.failedTrades,
    totalValue: stats.totalValue,
    updatedAt: updatedAt.toISOString(),
  };
}

/** The contract's Stats for one user: one aggregate over the trades, one over the balances. */
export async function userStats(db: Db, userId: string, prices: PriceBook): Promise<Stats> {
  const [agg, held] = await Promise.all([tradeAggregates(db, userId), holdings(db, userId)]);
  return statsOf(agg, held, prices);
}

/** The Balances answer for holdings just read from the balances table. */
export async function userBalances(
  db: Db,
  userId: string,
  current: UserBalances,
  prices: PriceBook,
): Promise<Balances> {
  const stats = statsOf(await tradeAggregates(db, userId), sumVenues(current), prices);
  return balancesOf(current, stats, current.updatedAt ?? new Date());
}
