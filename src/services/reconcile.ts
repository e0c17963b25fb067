import type { ArbitrageOpportunity, Balances, Prices, Stats, SymbolPrice, Trade } from '../../contract/entities';
import { DEFAULT_MIN_SPREAD } from '../../contract/domain';
import { isPriceProfitable } from '../../contract/rules';

// Pure folds of a snapshot with realtime deltas (spec section 4, realtime events). No I/O here.

/** How many trades the live recent list keeps in memory (the cache keeps more). */
export const RECENT_TRADES_LIMIT = 100;

export type TradesEvent =
  { type: 'snapshot'; trades: Trade[] } | { type: 'new'; trade: Trade } | { type: 'updated'; trade: Trade };

const sameTrade = (a: Trade, b: Trade) => a._id === b._id || (a.tradeId !== '' && a.tradeId === b.tradeId);

export function reduceTrades(state: Trade[], event: TradesEvent, limit = RECENT_TRADES_LIMIT): Trade[] {
  switch (event.type) {
    case 'snapshot':
      return event.trades.slice(0, limit);
    case 'new': {
      // A trade we already hold (an echo after a resync) replaces in place instead of duplicating.
      if (state.some((t) => sameTrade(t, event.trade)))
        return reduceTrades(state, { type: 'updated', trade: event.trade }, limit);
      return [event.trade, ...state].slice(0, limit);
    }
    case 'updated': {
      let found = false;
      const next = state.map((t) => {
        if (!sameTrade(t, event.trade)) return t;
        found = true;
        return event.trade;
      });
      return found ? next : state;
    }
  }
}

export type MergeEvent<T> = { type: 'snapshot'; value: T } | { type: 'delta'; value: Partial<T> };

/** Balances and stats: a snapshot replaces, a delta merges field by field (venue maps merged per currency). */
export function reduceBalances(state: Balances | null, event: MergeEvent<Balances>): Balances | null {
  if (event.type === 'snapshot') return event.value;
  const d = event.value;
  const base = state ?? emptyBalances();
  return {
    ...base,
    ...d,
    binance: { ...base.binance, ...(d.binance ?? {}) },
    deriv: { ...base.deriv, ...(d.deriv ?? {}) },
  };
}

export function reduceStats(state: Stats | null, event: MergeEvent<Stats>): Stats | null {
  if (event.type === 'snapshot') return { ...(state ?? emptyStats()), ...event.value };
  return { ...(state ?? emptyStats()), ...event.value };
}

export type PricesEvent = { type: 'snapshot'; prices: Prices } | { type: 'update'; price: SymbolPrice };

/** Prices are merged per symbol; `arbitrage.profitable` is recomputed against the user's own minSpread. */
export function reducePrices(state: Prices, event: PricesEvent, minSpread: number = DEFAULT_MIN_SPREAD): Prices {
  if (event.type === 'snapshot') {
    const next: Prices = {};
    for (const p of Object.values(event.prices)) if (p) next[p.symbol] = withProfitable(p, minSpread);
    return next;
  }
  return { ...state, [event.price.symbol]: withProfitable(event.price, minSpread) };
}

/** The contract's rule, so the dashboard and the server judge a spread the same way (a stale price never is). */
export function withProfitable(p: SymbolPrice, minSpread: number): SymbolPrice {
  const profitable = isPriceProfitable(p, minSpread);
  return profitable === p.arbitrage.profitable ? p : { ...p, arbitrage: { ...p.arbitrage, profitable } };
}

export const OPPORTUNITIES_LIMIT = 50;
/** Opportunities are appended (newest last), keeping a bounded window. */
export function reduceOpportunities(
  state: ArbitrageOpportunity[],
  o: ArbitrageOpportunity,
  limit = OPPORTUNITIES_LIMIT,
): ArbitrageOpportunity[] {
  const next = [...state, o];
  return next.length > limit ? next.slice(next.length - limit) : next;
}

export function emptyBalances(): Balances {
  const zero = { USDT: 0, BTC: 0, ETH: 0 };
  return {
    binance: { ...zero },
    deriv: { ...zero },
    netProfit: 0,
    winRate: 0,
    decidedTrades: 0,
    totalTrades: 0,
    successfulTrades: 0,
    failedTrades: 0,
    totalValue: 0,
    updatedAt: new Date(0).toISOString(),
  };
}

export function emptyStats(): Stats {
  return {
    totalTrades: 0,
    successfulTrades: 0,
    failedTrades: 0,
    totalProfit: 0,
    netProfit: 0,
    winRate: 0,
    decidedTrades: 0,
    totalValue: 0,
  };
}
