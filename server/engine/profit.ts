// Realised profit of a trade from its fills, in decimal arithmetic.
import type { StoredLeg } from '../db/schema/trades';
import { money, type Money } from './decimal';

/** Price movement PnL of one leg: long gains when the close is above the open, short the reverse. Fees excluded. */
export function legPnl(leg: StoredLeg): Money {
  if (!leg.open || !leg.close) return money(0);
  const opened = money(leg.open.price).times(leg.open.quantity);
  const closed = money(leg.close.price).times(leg.close.quantity);
  return leg.side === 'buy' ? closed.minus(opened) : opened.minus(closed);
}

export function legFees(leg: StoredLeg): Money {
  return money(leg.open?.fee ?? 0).plus(leg.close?.fee ?? 0);
}

/** actualProfit = Σ legs' realised PnL − every fee paid, open and close. */
export function tradeProfit(legs: readonly StoredLeg[]): Money {
  return legs.reduce((sum, leg) => sum.plus(legPnl(leg)).minus(legFees(leg)), money(0));
}
