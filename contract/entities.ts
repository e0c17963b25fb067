// Entities as they travel on the wire (JSON). Money is USDT as a JSON number; spreads are fractions.
import type {
  Currency,
  LegSide,
  LegStatus,
  MarketKind,
  OpportunityOutcomeKind,
  Role,
  SimProfile,
  SymbolId,
  TradeOrigin,
  TradeStatus,
  VenueId,
} from './domain';
import type { TradingStop } from './trading-state';
import type { DerivLink } from './deriv';

/** The user record the API returns. Secrets never appear: only a masked form (last 4 characters) and a has-flag. */
export interface PublicUser {
  _id: string;
  username: string;
  email: string;
  role: Role;
  isActive: boolean;
  firstName: string;
  lastName: string;
  phone: string;
  bio: string;
  createdAt: string;
  lastLogin: string | null;
  /** Masked, e.g. '••••abcd', or '' when not saved. */
  binanceApiKey: string;
  binanceSecretKey: string;
  derivToken: string;
  /** The Deriv app ID is not a secret and is returned as saved. */
  derivAppId: string;
  /** Which Deriv API the token belongs to and the accounts it reaches, as Deriv last said. */
  deriv: DerivLink;
  hasBinanceApiKey: boolean;
  hasBinanceSecretKey: boolean;
  hasDerivToken: boolean;
  maxExposure: number;
  /** Fraction, e.g. 0.002 = 0.2 %. */
  minSpread: number;
  /** USDT: automated trading stops once realised P&L since trading was enabled falls this far below its peak. */
  maxLoss: number;
  tradingEnabled: boolean;
  /** Why automated trading is not running (contract/trading-state.ts); null while it runs. */
  tradingStop: TradingStop | null;
  /** Set when the engine turned trading off by itself (maxLoss reached, or repeated refusals); null otherwise. */
  tradingPausedAt: string | null;
  /** Why, in the trader's words, e.g. 'Binance refused the order — insufficient USDT'. */
  tradingPauseReason: string | null;
  /** The IANA zone the user reads dates in (contract/time-zone.ts); null: the browser's own. */
  timeZone: string | null;
  /** The pairs the user trades (every pair the server trades unless the user picked some), in the server's order. */
  symbols: SymbolId[];
}

export interface Fill {
  /** Average fill price in USDT. */
  price: number;
  /** Base-currency quantity (coins). */
  quantity: number;
  /** Fee in USDT. */
  fee: number;
  at: string;
}

export interface TradeLeg {
  venue: VenueId;
  /** Side of the opening order: 'buy' = long the asset on that venue, 'sell' = short. */
  side: LegSide;
  /** Idempotency key of the opening order; the closing order uses `${clientOrderId}-c`. */
  clientOrderId: string;
  venueOrderId: string | null;
  status: LegStatus;
  open: Fill | null;
  close: Fill | null;
}

export interface Trade {
  _id: string;
  tradeId: string;
  userId: string;
  symbol: SymbolId;
  status: TradeStatus;
  /** Notional in USDT. */
  totalAmount: number;
  /** Spread at open, (deriv − binance) / binance. */
  arbitrageSpread: number;
  /** Realised P&L net of all fees; 0 until the trade is finished (a failed trade's unwind usually costs a little). */
  actualProfit: number;
  /** 'manual' when asked for through POST /trades, 'auto' when the engine chose it. */
  origin: TradeOrigin;
  /** Why a trade failed, was cancelled or closed (e.g. 'converged', 'time limit'). */
  reason: string | null;
  legs: TradeLeg[];
  /**
   * Both venues' best bid and ask the decision to open was made on (each fill's slippage is measured against them);
   * null or absent for trades decided without quotes or recorded before they were kept.
   */
  decision?: Record<VenueId, { bid: number; ask: number }> | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface Pagination {
  current: number;
  pages: number;
  total: number;
}

export interface PriceArbitrage {
  profitable: boolean;
}

export interface SymbolPrice {
  symbol: SymbolId;
  /** Mid prices; null while a venue has not quoted. */
  binance: number | null;
  deriv: number | null;
  /** (deriv − binance) / binance, or null. */
  spread: number | null;
  /** Never true while `stale` (rules.ts isPriceProfitable). */
  arbitrage: PriceArbitrage;
  timestamp: string;
  /**
   * A venue's last quote is older than the engine's freshness limit (QUOTE_MAX_AGE_MS): the spread is not tradable
   * and must not be shown as an opportunity.
   */
  stale: boolean;
  /** Age of each venue's last quote when this price was sent, ms; null while that venue has not quoted. */
  ageMs: Record<VenueId, number | null>;
}

/** The pairs with a price so far (a pair that has not quoted yet has no key). */
export type Prices = Record<SymbolId, SymbolPrice>;

export type VenueBalances = Record<Currency, number>;

/** A user's trading figures; each is defined once, in contract/figures.ts. */
export interface Stats {
  /** Every trade, open ones included. */
  totalTrades: number;
  /** Won trades (contract/figures.ts WINNING_TRADE): the win rate's numerator. */
  successfulTrades: number;
  /** Failed trades. */
  failedTrades: number;
  /** Sum of the profits of won trades. */
  totalProfit: number;
  /** Realised P&L of every finished trade (completed, failed, cancelled), net of all fees. */
  netProfit: number;
  /** Won trades / decided trades × 100 (0 when none). */
  winRate: number;
  /** Finished trades that moved money: the base of winRate. 0 = no win rate yet (screens show '—'). */
  decidedTrades: number;
  /** Value in USDT of everything held on both venues at current prices. */
  totalValue: number;
}

export interface Balances {
  binance: VenueBalances;
  deriv: VenueBalances;
  netProfit: number;
  winRate: number;
  /** As in Stats. */
  decidedTrades: number;
  totalTrades: number;
  successfulTrades: number;
  failedTrades: number;
  totalValue: number;
  updatedAt: string;
}

export interface ArbitrageOpportunity {
  pair: SymbolId;
  /** Fraction. */
  spread: number;
  binance: number;
  deriv: number;
  /** 'deriv-rich': Deriv above Binance (buy spot, short Deriv); 'binance-rich' the mirror case. */
  direction: 'deriv-rich' | 'binance-rich';
  timestamp: string;
}

/** Which market the server trades on; the client always says so on screen. */
export interface MarketInfo {
  kind: MarketKind;
  /** The simulated market's profile; null on the live market. */
  simProfile: SimProfile | null;
  /** Longest a trade stays open before the engine closes it (TRADE_MAX_HOLD_MS); absent from an older cached answer. */
  tradeMaxHoldMs?: number;
  /** The cost floor (contract/costs.ts costFloor at the default taker fee), a fraction; absent from an older cached answer. */
  costFloor?: number;
  /** The calibrated simulated market's own recorded pace (GET /snapshot and GET /meta); absent elsewhere. */
  pace?: MarketPace | null;
  /** The pairs the server trades (SYMBOLS), in its order; absent from an older cached answer (then the spec's two). */
  symbols?: SymbolId[];
}

/**
 * How often the calibrated market offered an opportunity over its recorded history: the episodes in which either
 * pair's spread reached a new account's opening threshold (contract/costs.ts openThreshold at TRADING_DEFAULTS),
 * per recorded day, over the last `days` days that have history.
 */
export interface MarketPace {
  /** Opportunities a day, averaged over the recorded days. */
  perDay: number;
  /** Days with recorded history counted (at most a week). */
  days: number;
  /** The |spread| counted as an opportunity, a fraction. */
  threshold: number;
}

/** Whether the engine trades for the user: on, off by the user, paused by the engine (repeated refusals), halted (maxLoss). */
export type EngineState = 'running' | 'off' | 'paused' | 'halted';

/** The user's risk figures as the engine judges them, from the database (GET /trades/stats/risk). */
export interface RiskSummary {
  state: EngineState;
  /** The stored stop kind (contract/trading-state.ts), null while trading runs; absent from an older cached answer. */
  stop?: TradingStop | null;
  /** Why the engine paused or halted; null otherwise. */
  reason: string | null;
  /** When it paused or halted; null otherwise. */
  since: string | null;
  /** Realised P&L of the trades finished since trading was last enabled, USDT, and its highest point (at least 0). */
  realised: number;
  peak: number;
  /** peak − realised: the figure maxLoss limits. */
  drawdown: number;
  maxLoss: number;
  /** Notional of open trades (contract/positions.ts exposureUsed) against maxExposure, USDT. */
  exposure: number;
  maxExposure: number;
  /** Start of the maxLoss window: when trading was last enabled; null when never. */
  windowStart: string | null;
}

/** One point of a symbol's spread history: a one-second sample, or the average of a bucket of them. */
export interface SpreadPoint {
  /** Start of the second or bucket, ms since epoch. */
  t: number;
  /** Mid prices (averages over a bucket). */
  binance: number;
  deriv: number;
  /** (deriv − binance) / binance, a fraction; over a bucket its average, lowest and highest. */
  spread: number;
  spreadLow: number;
  spreadHigh: number;
}

export interface SpreadSeries {
  symbol: SymbolId;
  /** The range asked for, ISO 8601. */
  from: string;
  to: string;
  /** Width of each point's bucket; 1 = raw one-second samples. */
  resolutionSeconds: number;
  /** Oldest first; seconds (or buckets) without a sample have no point. */
  points: SpreadPoint[];
}

/** What the engine did with an opportunity for one user (the cockpit lists these). */
export interface OpportunityOutcome {
  symbol: SymbolId;
  /** The spread evaluated, a fraction. */
  spread: number;
  direction: 'deriv-rich' | 'binance-rich';
  outcome: OpportunityOutcomeKind;
  /** In the trader's words, e.g. 'Deriv has not quoted for 3.2 s' or 'not enough ETH on Binance for the mirror sell'. */
  reason: string;
  /** The trade opened, when taken. */
  tradeId: string | null;
  at: string;
}
