// Entities as they travel on the wire (JSON). Money is USDT as a JSON number; spreads are fractions.
import type { Currency, Role, SymbolId, TradeStatus, VenueId } from './domain';

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
  hasBinanceApiKey: boolean;
  hasBinanceSecretKey: boolean;
  hasDerivToken: boolean;
  maxExposure: number;
  /** Fraction, e.g. 0.002 = 0.2 %. */
  minSpread: number;
  maxLoss: number;
  tradingEnabled: boolean;
}

export type LegSide = 'buy' | 'sell';
export type LegStatus = 'opening' | 'open' | 'closing' | 'closed' | 'failed' | 'unwound';

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
  /** Net of all fees; 0 until completed. */
  actualProfit: number;
  /** 'manual' when asked for through POST /trades, 'auto' when the engine chose it. */
  origin: 'auto' | 'manual';
  /** Why a trade failed, was cancelled or closed (e.g. 'converged', 'time limit'). */
  reason: string | null;
  legs: TradeLeg[];
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
  arbitrage: PriceArbitrage;
  timestamp: string;
}

export type Prices = Partial<Record<SymbolId, SymbolPrice>>;

export type VenueBalances = Record<Currency, number>;

export interface Stats {
  totalTrades: number;
  /** Completed trades. */
  successfulTrades: number;
  failedTrades: number;
  /** Sum of the profits of winning trades. */
  totalProfit: number;
  /** Sum of actualProfit over all completed trades (wins minus losses, net of fees). */
  netProfit: number;
  /** Winning completed trades / completed trades × 100 (0 when none). */
  winRate: number;
  /** Value in USDT of everything held on both venues at current prices. */
  totalValue: number;
}

export interface Balances {
  binance: VenueBalances;
  deriv: VenueBalances;
  netProfit: number;
  winRate: number;
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
