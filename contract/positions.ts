// Figures of open trades (positions), one definition for every screen that shows them.
import type { SymbolPrice, Trade, TradeLeg } from './entities';
import type { VenueId } from './domain';

/** A leg's price P&L at a current price: a long gains when the price is above its entry, a short the reverse. */
function legMove(leg: TradeLeg, current: number): number {
  if (!leg.open) return 0;
  const diff = (current - leg.open.price) * leg.open.quantity;
  return leg.side === 'buy' ? diff : -diff;
}

/**
 * Unrealised P&L of an open trade at current mid prices, USDT: each leg still open marked to its venue's price, minus
 * every fee already paid (the opening fees; a leg already closed counts its realised move and both fees). Null while a
 * leg is still being placed, or when a venue the trade holds a leg on has no current price: an unknown mark is not
 * shown as zero.
 */
export function unrealisedPnl(
  trade: Pick<Trade, 'legs'>,
  price: Pick<SymbolPrice, 'binance' | 'deriv'> | undefined,
): number | null {
  let total = 0;
  for (const leg of trade.legs) {
    // A leg still being placed has no entry yet: the trade's mark is unknown until it fills.
    if (!leg.open) {
      if (leg.status === 'opening') return null;
      continue;
    }
    total -= leg.open.fee + (leg.close?.fee ?? 0);
    if (leg.close) {
      total += legMove(leg, leg.close.price) * (leg.close.quantity / leg.open.quantity || 0);
      continue;
    }
    const current = price?.[leg.venue as VenueId];
    if (current === null || current === undefined || !Number.isFinite(current)) return null;
    total += legMove(leg, current);
  }
  return total;
}

/** Exposure used: the notional of the user's open trades, USDT (what maxExposure limits). */
export function exposureUsed(trades: readonly Pick<Trade, 'status' | 'totalAmount'>[]): number {
  return trades.reduce((sum, t) => (t.status === 'pending' ? sum + t.totalAmount : sum), 0);
}

/** Milliseconds left before the engine closes an open trade on its hold limit; never below 0. */
export function holdTimeLeftMs(trade: Pick<Trade, 'createdAt'>, maxHoldMs: number, nowMs: number): number {
  return Math.max(0, Date.parse(trade.createdAt) + maxHoldMs - nowMs);
}
