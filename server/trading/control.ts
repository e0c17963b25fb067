// The one owner of a user's trading state (DESIGN.md section 3): turning automated trading on and off, saving the
// limits with the switch, Stop & flatten and an admin's close (close-all.ts), and the global halt. HTTP handlers call
// it (later the Telegram bot too), the engine reports its own stops through engine-stops.ts, and nothing else writes
// the switch (db/repositories/trading-state.ts, which only this folder may import). The state is saved first and then
// this instance's engine is told: an API-only instance still changes trading for the engine instance, which re-reads
// within seconds. Live trading is never switched on without the keys it needs, so the stored switch always says what
// the engine does.
import type { MarketKind, SymbolId } from '../../contract/domain';
import { CLOSE_REASONS } from '../../contract/trade-life';
import type { TradingHaltState } from '../../contract/guard';
import type { Db } from '../db/client';
import { findCredentials } from '../db/repositories/credentials';
import { turnTradingOff, turnTradingOn } from '../db/repositories/trading-state';
import { setTradingHalt } from '../db/repositories/trading-halt';
import { findUserById, updateUser } from '../db/repositories/users';
import type { UserRow } from '../db/schema';
import { closeAllTrades, type CloseAllOutcome } from './close-all';
import type { TradingEngine } from './engine-port';
import { missingTradingKeys } from './keys';

export interface TradingControlDeps {
  db: Db;
  market: MarketKind;
  /** This process's engine; null on an API-only instance (ENGINE=off). */
  engine: TradingEngine | null;
}

/** The limits a user saves with the switch (decimal strings, minSpread a fraction); omitted ones stay. */
export interface LimitChanges {
  maxExposure?: string;
  minSpread?: string;
  maxLoss?: string;
  /** The pairs the user trades (checked against the server's by the caller). */
  symbols?: SymbolId[];
}

export type EnableResult =
  { ok: true; user: UserRow } | { ok: false; reason: 'keys-missing' | 'not-found'; message: string };

export interface SaveSettingsResult {
  user: UserRow;
  /** Why trading was asked to go on and did not (the limits were saved all the same); null otherwise. */
  refused: string | null;
}

export class TradingControl {
  constructor(private readonly deps: TradingControlDeps) {}

  /** Turns automated trading on, unless the market needs keys the user has not saved. */
  async enable(userId: string): Promise<EnableResult> {
    const missing = missingTradingKeys(this.deps.market, await findCredentials(this.deps.db, userId));
    if (missing) return { ok: false, reason: 'keys-missing', message: missing };
    const user = await turnTradingOn(this.deps.db, userId);
    if (!user) return { ok: false, reason: 'not-found', message: 'User not found' };
    await this.deps.engine?.refreshUser(userId);
    return { ok: true, user };
  }

  /** Turns automated trading off (by the user); open trades close normally. */
  async disable(userId: string): Promise<UserRow | null> {
    const user = await turnTradingOff(this.deps.db, userId, 'off');
    await this.deps.engine?.removeUser(userId);
    return user;
  }

  /**
   * Saves the limits, then the switch when given. Asked to turn trading on without the keys the market needs, the
   * limits are still saved (nothing the user typed is lost) and trading stays off, with the reason. Null when the
   * user does not exist.
   */
  async saveSettings(
    userId: string,
    limits: LimitChanges,
    tradingEnabled?: boolean,
  ): Promise<SaveSettingsResult | null> {
    const saved = await updateUser(this.deps.db, userId, limits);
    if (!saved) return null;
    if (tradingEnabled === true) {
      const enabled = await this.enable(userId);
      if (enabled.ok) return { user: enabled.user, refused: null };
      return { user: (await findUserById(this.deps.db, userId)) ?? saved, refused: enabled.message };
    }
    if (tradingEnabled === false) return { user: (await this.disable(userId)) ?? saved, refused: null };
    // New limits apply to the very next tick rather than at the engine's periodic re-read.
    await this.deps.engine?.refreshUser(userId);
    return { user: saved, refused: null };
  }

  /** The user's kill switch: trading off and every open trade closed (close-all.ts). */
  stopAndFlatten(userId: string, waitMs: number): Promise<CloseAllOutcome> {
    return closeAllTrades(this.deps, { userId, stop: 'flattened', reason: CLOSE_REASONS.flattened, waitMs });
  }

  /** An admin closing the account's open trades before deactivating or deleting it. */
  closeForAdmin(userId: string, reason: string, waitMs: number): Promise<CloseAllOutcome> {
    return closeAllTrades(this.deps, { userId, stop: 'admin', reason, waitMs });
  }

  /** The admin's global kill switch, saved (a restart or failover stays halted) and applied by this engine at once. */
  async setGlobalHalt(halted: boolean, reason: string, by: { id: string; name: string }): Promise<TradingHaltState> {
    const halt = await setTradingHalt(this.deps.db, { halted, reason, by });
    this.deps.engine?.setGlobalHalt(halted);
    return halt;
  }
}
