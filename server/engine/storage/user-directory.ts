// The engine's view of users' trading settings and realised figures, on the database.
import type { Db } from '../../db/client';
import { findTradingSettings, listTradingSettings, pauseTrading, realisedWindow } from '../../db/repositories/users';
import type { StoredWindow, TradingSettings, UserDirectory } from '../ports';

export class DbUserDirectory implements UserDirectory {
  constructor(private readonly db: Db) {}

  settings(userId: string): Promise<TradingSettings | null> {
    return findTradingSettings(this.db, userId);
  }

  tradingUsers(): Promise<TradingSettings[]> {
    return listTradingSettings(this.db);
  }

  realisedWindow(userId: string): Promise<StoredWindow> {
    return realisedWindow(this.db, userId);
  }

  stopTrading(userId: string, reason: string): Promise<void> {
    return pauseTrading(this.db, userId, reason);
  }
}
