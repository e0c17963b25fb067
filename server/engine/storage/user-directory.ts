// The engine's view of users' trading settings and realised figures, on the database. The realised window is read
// after every trade's end: on a burst, the reads of many users arriving together are one query each (batch.ts), not
// two per user queued on the pool ahead of the next trades' pre-trade reads and write-ahead inserts.
import { ReadBatcher } from '../../db/batch';
import type { Db } from '../../db/client';
import type { EngineStop } from '../../../contract/trading-state';
import { failedInARowOf } from '../../db/repositories/trade-outcomes';
import { findTradingSettings, listTradingSettings, realisedWindows } from '../../db/repositories/users';
import type { StoredWindow, TradingSettings, UserDirectory } from '../ports';

export class DbUserDirectory implements UserDirectory {
  private readonly windows: ReadBatcher<string, StoredWindow>;

  /**
   * @param recordStop how the engine's own stops are recorded: the trading-state owner's recorder
   *   (server/trading/engine-stops.ts), handed in by the process so the engine never writes that state itself.
   */
  constructor(
    private readonly db: Db,
    private readonly recordStop: (userId: string, stop: EngineStop, reason: string) => Promise<void>,
  ) {
    this.windows = new ReadBatcher(
      (ids) => this.readWindows(ids),
      (id) => id,
      {
        current: '0',
        peak: '0',
        failedInARow: [],
      },
    );
  }

  settings(userId: string): Promise<TradingSettings | null> {
    return findTradingSettings(this.db, userId);
  }

  tradingUsers(): Promise<TradingSettings[]> {
    return listTradingSettings(this.db);
  }

  realisedWindow(userId: string): Promise<StoredWindow> {
    return this.windows.load(userId);
  }

  private async readWindows(userIds: string[]): Promise<Map<string, StoredWindow>> {
    const [windows, failed] = await Promise.all([realisedWindows(this.db, userIds), failedInARowOf(this.db, userIds)]);
    const out = new Map<string, StoredWindow>();
    for (const userId of userIds) {
      out.set(userId, {
        ...(windows.get(userId) ?? { current: '0', peak: '0' }),
        failedInARow: (failed.get(userId) ?? []).map((f) => ({
          symbol: f.symbol,
          at: f.closedAt.getTime(),
          reason: f.reason ?? 'a leg could not be placed',
        })),
      });
    }
    return out;
  }

  stopTrading(userId: string, stop: EngineStop, reason: string): Promise<void> {
    return this.recordStop(userId, stop, reason);
  }
}
