import type { Currency, VenueId } from '../../../contract/domain';
import type { Balances, Prices } from '../../../contract/entities';

/** Dollar value of a holding: USDT is dollars; BTC and ETH at the live Binance price (Deriv when Binance is missing). */
export function usdValue(currency: Currency, amount: number, prices: Prices): number | null {
  if (currency === 'USDT') return amount;
  const p = prices[`${currency}/USDT`];
  const price = p?.binance ?? p?.deriv ?? null;
  return price === null ? null : amount * price;
}

/** Total portfolio value: every holding of both venues. Falls back to the server's figure while prices are missing. */
export function portfolioValue(b: Balances, prices: Prices): number {
  let total = 0;
  for (const venue of ['binance', 'deriv'] as VenueId[]) {
    for (const [currency, amount] of Object.entries(b[venue]) as [Currency, number][]) {
      const v = usdValue(currency, amount, prices);
      if (v === null) return b.totalValue;
      total += v;
    }
  }
  return total;
}
