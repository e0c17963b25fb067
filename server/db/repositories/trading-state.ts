// The writes of a user's trading switch and stop kind (users.trading_enabled, trading_stop and the stop's when and
// why). Only server/trading imports this file (eslint.config.js): every change of a user's trading state goes through
// that one owner. Reads are in users.ts.
import { eq, sql } from 'drizzle-orm';
import type { EngineStop } from '../../../contract/trading-state';
import type { Db } from '../client';
import { users, type UserRow } from '../schema';

/** The user's own ways to turn trading off, and an admin's; the engine's stops are recorded by recordEngineStop. */
export type ManualStop = 'off' | 'flattened' | 'admin';

/**
 * Turns automated trading on. From off, this starts a new maxLoss window (tradingEnabledAt) and lifts any stop;
 * saving while already on changes neither.
 */
export async function turnTradingOn(db: Db, userId: string): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({
      tradingEnabled: true,
      tradingStop: null,
      tradingEnabledAt: sql`case when ${users.tradingEnabled} then ${users.tradingEnabledAt} else now() end`,
      tradingPausedAt: null,
      tradingPauseReason: null,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId))
    .returning();
  return row ?? null;
}

/**
 * Turns automated trading off. A plain 'off' keeps a stop already recorded (the pause or halt stays what the user
 * reads); Stop & flatten and an admin's close are explicit acts and are recorded over anything, with when and why.
 */
export async function turnTradingOff(
  db: Db,
  userId: string,
  stop: ManualStop,
  reason: string | null = null,
): Promise<UserRow | null> {
  const keep = stop === 'off';
  const [row] = await db
    .update(users)
    .set({
      tradingEnabled: false,
      tradingStop: keep ? sql`coalesce(${users.tradingStop}, 'off')` : stop,
      ...(!keep && { tradingPausedAt: new Date(), tradingPauseReason: reason }),
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId))
    .returning();
  return row ?? null;
}

/** The engine turned the user's trading off by itself (max loss reached, or repeated failed trades), with why. */
export async function recordEngineStop(db: Db, userId: string, stop: EngineStop, reason: string): Promise<void> {
  await db
    .update(users)
    .set({
      tradingEnabled: false,
      tradingStop: stop,
      tradingPausedAt: new Date(),
      tradingPauseReason: reason,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}
