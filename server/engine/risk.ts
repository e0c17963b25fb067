// A user's risk figures as the engine judges them, read from the database so every instance answers the same: the
// engine state (running, off, paused, halted and why), the maxLoss drawdown over the realised window, and the exposure
// of open trades. The cockpit's risk strip shows them.
import { and, eq } from 'drizzle-orm';
import type { RiskSummary } from '../../contract/entities';
import { engineStateOf } from '../../contract/trading-state';
import { exposureUsed } from '../../contract/positions';
import type { Db } from '../db/client';
import { realisedWindow } from '../db/repositories/users';
import { trades } from '../db/schema/trades';
import { users } from '../db/schema/users';
import { money } from './decimal';
import { drawdownOf } from './drawdown';

/** Null when the user does not exist. */
export async function userRisk(db: Db, userId: string): Promise<RiskSummary | null> {
  const [u] = await db
    .select({
      tradingStop: users.tradingStop,
      tradingEnabledAt: users.tradingEnabledAt,
      tradingPausedAt: users.tradingPausedAt,
      tradingPauseReason: users.tradingPauseReason,
      maxLoss: users.maxLoss,
      maxExposure: users.maxExposure,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!u) return null;
  const [window, open] = await Promise.all([
    realisedWindow(db, userId),
    db
      .select({ status: trades.status, totalAmount: trades.totalAmount })
      .from(trades)
      .where(and(eq(trades.userId, userId), eq(trades.status, 'pending'))),
  ]);
  const current = money(window.current);
  const peak = money(window.peak);
  const state = engineStateOf(u.tradingStop);
  const stopped = state === 'paused' || state === 'halted';
  return {
    state,
    stop: u.tradingStop,
    reason: stopped ? u.tradingPauseReason : null,
    since: stopped && u.tradingPausedAt ? u.tradingPausedAt.toISOString() : null,
    realised: current.toNumber(),
    peak: peak.toNumber(),
    drawdown: drawdownOf({ current, peak }).toNumber(),
    maxLoss: Number(u.maxLoss),
    exposure: exposureUsed(open.map((t) => ({ status: t.status, totalAmount: Number(t.totalAmount) }))),
    maxExposure: Number(u.maxExposure),
    windowStart: u.tradingEnabledAt ? u.tradingEnabledAt.toISOString() : null,
  };
}
