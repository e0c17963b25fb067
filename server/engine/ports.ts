// What the engine needs from the rest of the server, and what it offers, as interfaces. The database implementations
// live in storage/; tests and the benchmark pass in-memory ones.
import type { Stats, Trade } from '../../contract/entities';
import type { Currency, SymbolId, VenueId } from '../../contract/domain';
import type { EngineStop, TradingStop } from '../../contract/trading-state';
import type { VenueAccount } from '../venues/types';
import type { TradeState } from './trade-state';

/** Latest mid prices; null while unknown. The engine is one; an instance without an engine knows none. */
export interface PriceBook {
  /** Mid price for valuing holdings: Binance's mid, else Deriv's, else null. */
  mid(symbol: SymbolId): number | null;
}

export const NO_PRICES: PriceBook = { mid: () => null };

/** Where the engine writes trades. */
export interface TradeStore {
  /** Write-ahead: the trade and its legs exist before any order is placed. */
  insert(state: TradeState): Promise<Trade>;
  /** Legs, status, profit and reason after a step. */
  save(state: TradeState): Promise<Trade>;
}

export interface RecoverableStore extends TradeStore {
  /** Trades left pending, for crash recovery. */
  unfinished(): Promise<TradeState[]>;
  /** The venue order ids that trades created since `since` hold on a venue (so recovery never claims one twice). */
  claimedOrderIds(venue: VenueId, since: Date): Promise<Set<string>>;
}

/** A trade's row is gone: its user was deleted. The engine logs it once and lets the trade go. */
export class TradeGoneError extends Error {
  constructor(readonly tradeId: string) {
    super(`Trade ${tradeId} no longer exists: its user was deleted`);
    this.name = 'TradeGoneError';
  }
}

/** A user's trading settings as stored. */
export interface TradingSettings {
  userId: string;
  maxExposure: string;
  maxLoss: string;
  minSpread: string;
  tradingEnabled: boolean;
  /** Why trading is not running (null while it runs): the engine's own stops hold until trading is turned on again. */
  tradingStop: TradingStop | null;
  /** When trading was last turned on: the start of the maxLoss window (null: since the first trade). */
  tradingEnabledAt: Date | null;
  /** Set when the engine turned trading off by itself, with the reason. */
  tradingPausedAt: Date | null;
  tradingPauseReason: string | null;
  /** The pairs the user picked (users.symbols); null = every pair the server trades. */
  symbols: SymbolId[] | null;
}

/** The realised window (server/engine/drawdown.ts) as the database reads it, decimal strings. */
export interface StoredWindow {
  current: string;
  peak: string;
  /**
   * The failed trades in a row since trading was enabled (after the newest completed one), oldest first: the
   * circuit breaker's count and back-off, restored by a new process. Absent where nothing is stored (a replay).
   */
  failedInARow?: StoredFailure[];
}

/** A failed trade as the circuit breaker counts it. */
export interface StoredFailure {
  symbol: SymbolId;
  /** When it ended, ms since epoch. */
  at: number;
  reason: string;
}

export interface UserDirectory {
  /** An active user's settings; null when unknown, deleted or deactivated. */
  settings(userId: string): Promise<TradingSettings | null>;
  /** Every active user with tradingEnabled. */
  tradingUsers(): Promise<TradingSettings[]>;
  /** Realised P&L since trading was last enabled and its peak, from the finished trades. */
  realisedWindow(userId: string): Promise<StoredWindow>;
  /** The engine turned the user's trading off (maxLoss reached, repeated failures), recorded with its kind and why. */
  stopTrading(userId: string, stop: EngineStop, reason: string): Promise<void>;
}

/** The admin's global kill switch as stored (server/db/repositories/trading-halt.ts). */
export type HaltSource = () => Promise<boolean>;

/**
 * Changes of the stored kill switch as every instance saves them ('true' / 'false'), announced by the database at
 * commit (PostgreSQL LISTEN/NOTIFY). `lost`: notifications may have been missed; `live`: they arrive again.
 */
export interface HaltChanges {
  readonly isLive: boolean;
  subscribe(listener: { changed(payload: string): void; lost(): void; live(): void }): () => void;
}

/** Users' Stop & flatten requests saved by any instance, for the leading engine to carry out. */
export interface FlattenQueue {
  /** Each user whose open trades are to be closed, with the reason each trade closes with. */
  pending(): Promise<Array<{ userId: string; reason: string }>>;
  done(userId: string): Promise<void>;
}

export interface EngineLogger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

export interface FigureSources {
  /** The user's Stats, holdings valued at the given prices (figures.ts's userStats on the database). */
  stats(userId: string, prices: PriceBook): Promise<Stats>;
  /** Live mode: keep the balances table in step with the venue after each fill. */
  saveBalances?(userId: string, venue: VenueId, amounts: Record<Currency, string>): Promise<void>;
}

export type AccountLoader = (userId: string) => Promise<VenueAccount>;

export const SILENT_LOGGER: EngineLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
