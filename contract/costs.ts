// The cost model both sides read: the engine opens a trade only when the spread beats these costs, and the cockpit
// draws the same floor on the spread chart. Fractions of the trade's notional.

/** The default costs of a round trip, before a venue says otherwise (VENUES.md). */
export const TRADING_COSTS = {
  /** Binance taker fee when the account does not say (0.1 %), paid on open and on close. */
  defaultTakerFee: 0.001,
  /** Deriv commission on a round trip; the real figure comes with each proposal. */
  derivCommission: 0.0005,
  /** Expected slippage over both legs, open and close. */
  slippageBuffer: 0.0005,
  /** A trade counts as converged, and is closed, once the spread in its favour is back inside this band. */
  closeBand: 0.0005,
} as const;

export type TradingCosts = { readonly [K in keyof typeof TRADING_COSTS]: number };

/** The convergence a trade must capture to pay for itself: taker fee on open and close, commission, slippage. */
export function breakEvenFraction(costs: TradingCosts, takerFee: number): number {
  return 2 * takerFee + costs.derivCommission + costs.slippageBuffer;
}

/**
 * The cost floor: the smallest |spread| at which any trade opens, whatever the user's minSpread. A trade captures at
 * most |spread| − closeBand, so it must beat the break-even by the close band.
 */
export function costFloor(costs: TradingCosts = TRADING_COSTS, takerFee: number = costs.defaultTakerFee): number {
  return costs.closeBand + breakEvenFraction(costs, takerFee);
}

/** The smallest |spread| at which a user with this minSpread and fee opens a trade. */
export function openThreshold(costs: TradingCosts, minSpread: number, takerFee: number): number {
  return Math.max(minSpread, costFloor(costs, takerFee));
}
