// The engine's cost model and trading constants. Fractions are of the trade's notional.
import {
  breakEvenFraction as costBreakEven,
  openThreshold as costOpenThreshold,
  TRADING_COSTS,
} from '../../contract/costs';
import { DEFAULT_MIN_SPREAD } from '../../contract/domain';
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
  /** A quote older than this is not traded and its price is sent as stale (QUOTE_MAX_AGE_MS). */
  quoteMaxAgeMs: number;
  /** A decision pairs the two venues' quotes only when their timestamps are this close (QUOTE_MAX_SKEW_MS). */
  quoteMaxSkewMs: number;
  /** Price protection: how far an opening fill may be from the decision's quote, a fraction. */
  maxSlippage: number;
  /** How often Deriv quotes: a decision's first order leaves before Deriv's next tick (deadline.ts). */
  derivQuoteEveryMs: number;
  /** Time an order needs to reach a venue: the first order leaves at least this long before that tick. */
  orderLeadMs: number;
  /** Circuit breaker: the first back-off after a failed trade on a symbol, doubling with each further failure... */
  backoffBaseMs: number;
  /** ...up to this. */
  backoffMaxMs: number;
  /** Consecutive failed trades after which the user's automated trading is paused. */
  pauseAfterFailures: number;
  /** After a pre-trade check refused a trade (balance, venue limits), the symbol is not tried again for this long. */
  skipCooldownMs: number;
  /** Opportunity outcomes: at most one per user and symbol in this window unless the outcome changes. */
  outcomeEveryMs: number;
}

export const DEFAULT_TRADING_PARAMS: TradingParams = {
  // The cost figures are the contract's, so the cockpit draws the very floor the engine trades against.
  ...TRADING_COSTS,
  stopWidening: 0.01,
  maxHoldMs: 120_000,
  minNotional: money(10),
  perTradeExposureFraction: 0.25,
  defaultMinSpread: DEFAULT_MIN_SPREAD,
  quoteMaxAgeMs: 2000,
  // Below the simulated market's 250 ms tick, so a quote is never paired with the other venue's previous tick; at
  // BTC/ETH's 60–75 % annual volatility the price drifts about 0.5 bp in 200 ms, far inside the 35 bp open threshold.
  quoteMaxSkewMs: 200,
  maxSlippage: 0.001,
  derivQuoteEveryMs: 1_000,
  orderLeadMs: 100,
  backoffBaseMs: 5_000,
  backoffMaxMs: 300_000,
  pauseAfterFailures: 3,
  skipCooldownMs: 30_000,
  outcomeEveryMs: 1_000,
};

/** The convergence a trade must capture to pay for itself (contract/costs.ts). */
export function breakEvenFraction(params: TradingParams, takerFee: number): number {
  return costBreakEven(params, takerFee);
}

/** The smallest |spread| at which a user with this minSpread and fee opens a trade (contract/costs.ts). */
export function openThreshold(params: TradingParams, minSpread: number, takerFee: number): number {
  return costOpenThreshold(params, minSpread, takerFee);
}
