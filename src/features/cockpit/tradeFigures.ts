// What a trade's detail shows beyond its row: fees, fills and the slippage of its entry against the decision.
import type { Trade, TradeLeg } from '../../../contract/entities';

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

/**
 * The quote a leg's opening order was decided against (a buy takes the ask, a sell the bid) and the fill's slippage
 * from it as a fraction, positive when it cost the trade; null without a fill or without the decision's quotes.
 */
export function legSlippage(leg: TradeLeg, decision: Trade['decision']): { quote: number; slippage: number } | null {
  const q = decision?.[leg.venue];
  if (!q || !leg.open) return null;
  const quote = leg.side === 'buy' ? q.ask : q.bid;
  if (!(quote > 0)) return null;
  return { quote, slippage: leg.side === 'buy' ? (leg.open.price - quote) / quote : (quote - leg.open.price) / quote };
}
