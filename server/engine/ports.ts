// What the engine needs from the rest of the server, as interfaces: the database implementations live in
// user-directory.ts and ../db/repositories/trade-writes.ts; tests and the benchmark pass in-memory ones.
import type { Stats } from '../../contract/entities';
import type { Currency, VenueId } from '../../contract/domain';
import type { VenueAccount } from '../venues/types';
import type { TradeState } from './trade-state';
import type { TradeStore } from './store';

/** A user's trading settings as stored. */
export interface TradingSettings {
  userId: string;
  maxExposure: string;
  maxLoss: string;
  minSpread: string;
  tradingEnabled: boolean;
  tradingHaltedAt: Date | null;
  /** Realised profit of trades closed since trading was last halted (all time when never). */
  realisedPnl: string;
}

export interface UserDirectory {
  settings(userId: string): Promise<TradingSettings | null>;
  /** Every user with tradingEnabled. */
  tradingUsers(): Promise<TradingSettings[]>;
  /** tradingEnabled = false, tradingHaltedAt = now. */
  markHalted(userId: string): Promise<void>;
  setTradingEnabled(userId: string, enabled: boolean): Promise<void>;
}

export interface RecoverableStore extends TradeStore {
  /** Trades left pending, for crash recovery. */
  unfinished(): Promise<TradeState[]>;
}

export interface EngineLogger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

export interface FigureSources {
  stats(userId: string): Promise<Stats>;
  /** Live mode: keep the balances table in step with the venue after each fill. */
  saveBalances?(userId: string, venue: VenueId, amounts: Record<Currency, string>): Promise<void>;
}

export type AccountLoader = (userId: string) => Promise<VenueAccount>;

export const SILENT_LOGGER: EngineLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
