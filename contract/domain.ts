// Domain constants shared by server and client. No dependencies: the client imports this freely.

// Pairs are configuration (SYMBOLS, validated at start); what the product knows of each is in ./pairs.ts.
export type { SymbolId } from './pairs';

export const VENUES = ['binance', 'deriv'] as const;
export type VenueId = (typeof VENUES)[number];
/** How a venue is named to a person. */
export const VENUE_NAMES: Record<VenueId, string> = { binance: 'Binance', deriv: 'Deriv' };

/** Which market the server trades on: simulated (paper) or the real venues. */
export const MARKET_KINDS = ['sim', 'live'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];
/** The simulated market's profiles: `calibrated` behaves like the real pair; `demo` exaggerates its opportunities. */
export const SIM_PROFILES = ['calibrated', 'demo'] as const;
export type SimProfile = (typeof SIM_PROFILES)[number];
export const DEFAULT_SIM_PROFILE: SimProfile = 'calibrated';

/** USDT or a traded pair's coin (`currenciesOf` in ./pairs.ts lists a set of pairs' currencies). */
export type Currency = string;

export const TRADE_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type TradeStatus = (typeof TRADE_STATUSES)[number];
/** The statuses a trade ends in: its profit is realised and final. */
export const FINISHED_STATUSES = ['completed', 'failed', 'cancelled'] as const satisfies readonly TradeStatus[];

/** 'manual' when asked for through POST /trades, 'auto' when the engine chose it. */
export const TRADE_ORIGINS = ['auto', 'manual'] as const;
export type TradeOrigin = (typeof TRADE_ORIGINS)[number];

export const LEG_SIDES = ['buy', 'sell'] as const;
export type LegSide = (typeof LEG_SIDES)[number];
export const LEG_STATUSES = ['opening', 'open', 'closing', 'closed', 'failed', 'unwound'] as const;
export type LegStatus = (typeof LEG_STATUSES)[number];

/**
 * What the engine did with an opportunity, per user: taken, or skipped because the spread is below the user's
 * minSpread, the user's exposure is full, trading is paused (repeated refusals) or halted (maxLoss), a venue's quote
 * is stale, the two venues' quotes are too far apart in time, a pre-trade check failed, or the engine is backing off
 * after a failed trade.
 */
export const OPPORTUNITY_OUTCOMES = [
  'taken',
  'below_min_spread',
  'exposure_full',
  'paused',
  'halted',
  'quote_stale',
  'quotes_apart',
  'pretrade_failed',
  'backing_off',
  /** The engine could not send the first order while the decision's quotes were fresh: dropped, nothing sent. */
  'engine_busy',
] as const;
export type OpportunityOutcomeKind = (typeof OPPORTUNITY_OUTCOMES)[number];

/** How long after a decision was dropped as 'engine_busy' the engine is said to be shedding work (the risk strip). */
export const ENGINE_BUSY_RECENT_MS = 30_000;

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

/** A new account's trading settings (minSpread is a fraction). */
export const TRADING_DEFAULTS = { maxExposure: 1000, minSpread: 0.002, maxLoss: 100, tradingEnabled: false } as const;

/**
 * Bounds of the trading settings (spec section 5: at least 0, min spread 0 to 10 %), enforced by the server's schema
 * and checked by the form before it sends. USDT for the two amounts; minSpread as a fraction (the form shows percent).
 */
export const TRADING_LIMITS = {
  maxExposure: { min: 0, max: 1_000_000_000 },
  minSpread: { min: 0, max: 0.1 },
  maxLoss: { min: 0, max: 1_000_000_000 },
} as const;

/** Spread threshold (fraction) used for `arbitrage.profitable` when the user has set none. */
export const DEFAULT_MIN_SPREAD = TRADING_DEFAULTS.minSpread;

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Socket.IO room of one user. */
export const userRoom = (userId: string): string => `user:${userId}`;
