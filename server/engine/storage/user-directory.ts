// The engine's view of users' trading settings and realised figures, on the database.
import type { Db } from '../../db/client';
import type { EngineStop } from '../../../contract/trading-state';
import { failedInARow } from '../../db/repositories/trade-outcomes';
import { findTradingSettings, listTradingSettings, realisedWindow } from '../../db/repositories/users';
import type { StoredWindow, TradingSettings, UserDirectory } from '../ports';

export class DbUserDirectory implements UserDirectory {
  /**
   * @param recordStop how the engine's own stops are recorded: the trading-state owner's recorder
   *   (server/trading/engine-stops.ts), handed in by the process so the engine never writes that state itself.
   */
  constructor(
    private readonly db: Db,
    private readonly recordStop: (userId: string, stop: EngineStop, reason: string) => Promise<void>,
  ) {}

  settings(userId: string): Promise<TradingSettings | null> {
    return findTradingSettings(this.db, userId);
  }

  tradingUsers(): Promise<TradingSettings[]> {
    return listTradingSettings(this.db);
  }

  async realisedWindow(userId: string): Promise<StoredWindow> {
    const [window, failed] = await Promise.all([realisedWindow(this.db, userId), failedInARow(this.db, userId)]);
    return {
      ...window,
      failedInARow: failed.map((f) => ({
        symbol: f.symbol,
        at: f.closedAt.getTime(),
        reason: f.reason ?? 'a leg could not be placed',
      })),
    };
  }

  stopTrading(userId: string, stop: EngineStop, reason: string): Promise<void> {
    return this.recordStop(userId, stop, reason);
  }
}
