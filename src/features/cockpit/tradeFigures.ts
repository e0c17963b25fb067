// What a trade's detail shows beyond its row: fees, fills and the slippage of its entry against the decision.
import type { Trade } from '../../../contract/entities';

/** Every fee the trade's legs paid, open and close, USDT. */
export function totalFees(trade: Pick<Trade, 'legs'>): number {
  return trade.legs.reduce((s, l) => s + (l.open?.fee ?? 0) + (l.close?.fee ?? 0), 0);
}

/**
 * The spread the trade's opening fills achieved: (Deriv fill − Binance fill) / Binance fill; null until both legs filled.
 * Compared with `arbitrageSpread` (the spread the decision was made on), it is the entry slippage.
 */
export function filledOpenSpread(trade: Pick<Trade, 'legs'>): number | null {
  const b = trade.legs.find((l) => l.venue === 'binance')?.open?.price;
  const d = trade.legs.find((l) => l.venue === 'deriv')?.open?.price;
  return b && d ? (d - b) / b : null;
}

/**
 * Entry slippage as a fraction, signed so that a positive number cost the trade: the trade earns as the spread
 * converges, so it entered worse when the filled spread is smaller in size than the decided one.
 */
export function entrySlippage(trade: Pick<Trade, 'legs' | 'arbitrageSpread'>): number | null {
  const filled = filledOpenSpread(trade);
  return filled === null ? null : Math.abs(trade.arbitrageSpread) - Math.sign(trade.arbitrageSpread) * filled;
}
