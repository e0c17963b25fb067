// The engine's view of users' trading settings, on the database.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { trades } from '../db/schema/trades';
import { users } from '../db/schema/users';
import type { TradingSettings, UserDirectory } from './ports';

/** Realised profit counted against maxLoss: trades closed since the last halt (all of them when never halted). */
const realisedSinceHalt = sql<string>`coalesce((
  select sum(${trades.actualProfit}) from ${trades}
  where ${trades.userId} = ${users.id}
    and ${inArray(trades.status, ['completed', 'cancelled', 'failed'])}
    and ${trades.closedAt} > coalesce(${users.tradingHaltedAt}, '-infinity'::timestamptz)
), 0)::text`;

const columns = {
  userId: users.id,
  maxExposure: users.maxExposure,
  maxLoss: users.maxLoss,
  minSpread: users.minSpread,
  tradingEnabled: users.tradingEnabled,
  tradingHaltedAt: users.tradingHaltedAt,
  realisedPnl: realisedSinceHalt,
};

export class DbUserDirectory implements UserDirectory {
  constructor(private readonly db: Db) {}

  async settings(userId: string): Promise<TradingSettings | null> {
    const [row] = await this.db.select(columns).from(users).where(and(eq(users.id, userId), eq(users.isActive, true))).limit(1);
    return row ?? null;
  }

  tradingUsers(): Promise<TradingSettings[]> {
    return this.db.select(columns).from(users).where(and(eq(users.tradingEnabled, true), eq(users.isActive, true)));
  }

  async markHalted(userId: string): Promise<void> {
    await this.db.update(users).set({ tradingEnabled: false, tradingHaltedAt: new Date(), updatedAt: new Date() }).where(eq(users.id, userId));
  }

  async setTradingEnabled(userId: string, enabled: boolean): Promise<void> {
    await this.db.update(users).set({ tradingEnabled: enabled, updatedAt: new Date() }).where(eq(users.id, userId));
  }
}

