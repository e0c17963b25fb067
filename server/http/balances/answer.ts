// The Balances answer: holdings of both venues with the trading figures beside them (GET /balances, POST /exchanges/sync).
import type { Balances, VenueBalances } from '../../../contract/entities';
import type { Db } from '../../db/client';
import type { UserBalances, VenueAmounts } from '../../db/repositories/balances';
import { sumVenues, toStats, tradeAggregates, type MidPrices } from '../../db/repositories/stats';

const toWire = (amounts: VenueAmounts): VenueBalances => ({
  USDT: Number(amounts.USDT),
  BTC: Number(amounts.BTC),
  ETH: Number(amounts.ETH),
});

export async function balancesAnswer(db: Db, userId: string, current: UserBalances, prices: MidPrices): Promise<Balances> {
  const stats = toStats(await tradeAggregates(db, userId), sumVenues(current), prices);
  return {
    binance: toWire(current.binance),
    deriv: toWire(current.deriv),
    netProfit: stats.netProfit,
    winRate: stats.winRate,
    totalTrades: stats.totalTrades,
    successfulTrades: stats.successfulTrades,
    failedTrades: stats.failedTrades,
    totalValue: stats.totalValue,
    updatedAt: (current.updatedAt ?? new Date()).toISOString(),
  };
}
