import type { DBSchema } from 'idb';
import type { Pagination, Trade } from '../../contract/entities';
import type { SpreadSample } from '../../contract/spreads';

// IndexedDB layout. One database per user (wiped at logout), versioned; bump CACHE_DB_VERSION and add a step in
// upgrade() in db.ts when a store changes.
export const CACHE_DB_VERSION = 2;
export const CACHE_DB_PREFIX = 'arbitrage-cache:';
export const cacheDbName = (userId: string): string => `${CACHE_DB_PREFIX}${userId}`;

/** Keep at least this many of the most recent trades for offline history. */
export const CACHED_TRADES_KEEP = 2000;

/** The spread history kept per symbol for charts offline: the last day. */
export const CACHED_SPREADS_KEEP_MS = 24 * 3600 * 1000;

export type SnapshotKind =
  | 'prices'
  | 'balances'
  | 'stats'
  | 'profile'
  | 'opportunities'
  | 'recentTrades'
  | 'historySync'
  | 'market'
  | 'outcomes'
  | 'risk'
  | 'halt'
  | 'notifications'
  | 'venueHealth';

export interface SnapshotRecord<T = unknown> {
  kind: SnapshotKind;
  data: T;
  /** Epoch ms of when the app last saw this data live. */
  savedAt: number;
}

export interface TradePageRecord {
  /** The query that produced the page, e.g. 'status=&symbol=BTC/USDT&page=1&limit=20'. */
  key: string;
  trades: Trade[];
  pagination: Pagination;
  savedAt: number;
}

export interface CacheSchema extends DBSchema {
  snapshots: { key: SnapshotKind; value: SnapshotRecord };
  /** Every trade the app has seen, newest kept; indexes serve offline filtering and paging. */
  trades: {
    key: string;
    value: Trade;
    indexes: { createdAt: string; symbol_createdAt: [string, string]; status_createdAt: [string, string] };
  };
  tradePages: { key: string; value: TradePageRecord };
  /** Spread history points by symbol and time (version 2). */
  spreads: { key: [string, number]; value: SpreadSample };
}
