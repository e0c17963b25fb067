// The outcomes the circuit breaker counts, read back after a restart: the user's failed trades in a row.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { SymbolId } from '../../../contract/domain';
import type { Db } from '../client';
import { trades, users } from '../schema';

export interface FailedTrade {
  symbol: SymbolId;
  closedAt: Date;
  reason: string | null;
}

/** Enough for the longest back-off (it stops doubling long before) and for the pause. */
const LOOK_BACK = 50;

/**
 * The user's failed trades closed since trading was last enabled and after their newest completed trade, oldest
 * first: what the circuit breaker had counted when the process stopped (a cancelled trade neither counts nor resets).
 */
export async function failedInARow(db: Db, userId: string): Promise<FailedTrade[]> {
  const rows = await db
    .select({ symbol: trades.symbol, status: trades.status, reason: trades.reason, closedAt: trades.closedAt })
    .from(trades)
    .innerJoin(users, eq(users.id, trades.userId))
    .where(
      and(
        eq(trades.userId, userId),
        inArray(trades.status, ['completed', 'failed']),
        sql`${trades.closedAt} >= coalesce(${users.tradingEnabledAt}, '-infinity'::timestamptz)`,
      ),
    )
    .orderBy(desc(trades.closedAt), desc(trades.id))
    .limit(LOOK_BACK);
  const streak: FailedTrade[] = [];
  for (const row of rows) {
    if (row.status !== 'failed' || !row.closedAt) break;
    streak.push({ symbol: row.symbol, closedAt: row.closedAt, reason: row.reason });
  }
  return streak.reverse();
}
