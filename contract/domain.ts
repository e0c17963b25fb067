// Domain constants shared by server and client. No dependencies: the client imports this freely.

export const SYMBOLS = ['BTC/USDT', 'ETH/USDT'] as const;
export type SymbolId = (typeof SYMBOLS)[number];

export const VENUES = ['binance', 'deriv'] as const;
export type VenueId = (typeof VENUES)[number];

export const CURRENCIES = ['USDT', 'BTC', 'ETH'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const TRADE_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type TradeStatus = (typeof TRADE_STATUSES)[number];

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

/** Spread threshold (fraction) used for `arbitrage.profitable` when the user has set none. */
export const DEFAULT_MIN_SPREAD = 0.002;

export const TRADING_DEFAULTS = { maxExposure: 1000, minSpread: 0.002, maxLoss: 100, tradingEnabled: false } as const;

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Socket.IO room of one user. */
export const userRoom = (userId: string): string => `user:${userId}`;
