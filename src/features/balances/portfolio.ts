import type { Currency } from '../../../contract/domain';
import type { Prices } from '../../../contract/entities';

/** Dollar value of a holding: USDT is dollars; a coin at its pair's live Binance price (Deriv when Binance is missing). */
export function usdValue(currency: Currency, amount: number, prices: Prices): number | null {
  if (currency === 'USDT') return amount;
  const p = prices[`${currency}/USDT`];
  const price = p?.binance ?? p?.deriv ?? null;
  return price === null ? null : amount * price;
}
