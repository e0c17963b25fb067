// The engine's cost model and trading constants. Fractions are of the trade's notional.
import { money, type Money } from './decimal';

export interface TradingParams {
  /** Binance taker fee when the account does not say (VENUES.md: 0.1 %). */
  defaultTakerFee: number;
  /** Deriv commission on a round trip, as a fraction of notional; the real figure comes with each proposal. */
  derivCommission: number;
  /** Expected slippage over both legs, open and close. */
  slippageBuffer: number;
  /** A trade counts as converged, and is closed, once the spread in its favour is back inside this band. */
  closeBand: number;
  /** Per-trade stop: close when the spread has widened this much beyond where the trade opened. */
  stopWidening: number;
  /** Longest a trade stays open (TRADE_MAX_HOLD_MS). */
  maxHoldMs: number;
  /** No order below this notional (venue minimums), USDT. */
  minNotional: Money;
  /** Per-trade notional: this fraction of maxExposure... */
  perTradeExposureFraction: number;
  /** Spread threshold for the broadcast `arbitrage_opportunity` and for `priceUpdate`'s `profitable`. */
  defaultMinSpread: number;
}

export const DEFAULT_TRADING_PARAMS: TradingParams = {
  defaultTakerFee: 0.001,
  derivCommission: 0.0005,
  slippageBuffer: 0.0005,
  closeBand: 0.0005,
  stopWidening: 0.01,
  maxHoldMs: 120_000,
  minNotional: money(10),
  perTradeExposureFraction: 0.25,
  defaultMinSpread: 0.002,
};

/**
 * The convergence a trade must capture to pay for itself: Binance taker fee on open and close, the Deriv commission
 * and a slippage buffer. A trade captures at most |spread| − closeBand, so it opens only when that beats this.
 */
export function breakEvenFraction(params: TradingParams, takerFee: number): number {
  return 2 * takerFee + params.derivCommission + params.slippageBuffer;
}

/** The smallest |spread| at which a user with this minSpread and fee opens a trade. */
export function openThreshold(params: TradingParams, minSpread: number, takerFee: number): number {
  return Math.max(minSpread, params.closeBand + breakEvenFraction(params, takerFee));
}
