// The outcomes the circuit breaker counts, read back after a restart: the user's failed trades in a row.
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
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
  return (await failedInARowOf(db, [userId])).get(userId) ?? [];
}

/** The same for many users in one query (the engine reads it after every trade's end); a user without trades is absent. */
export async function failedInARowOf(db: Db, userIds: readonly string[]): Promise<Map<string, FailedTrade[]>> {
  if (userIds.length === 0) return new Map();
  const recent = db
    .select({
      userId: trades.userId,
      symbol: trades.symbol,
      status: trades.status,
      reason: trades.reason,
      closedAt: trades.closedAt,
      newest:
        sql<number>`row_number() over (partition by ${trades.userId} order by ${trades.closedAt} desc, ${trades.id} desc)`.as(
          'newest',
        ),
    })
    .from(trades)
    .innerJoin(users, eq(users.id, trades.userId))
    .where(
      and(
        inArray(trades.userId, [...userIds]),
        inArray(trades.status, ['completed', 'failed']),
        sql`${trades.closedAt} >= coalesce(${users.tradingEnabledAt}, '-infinity'::timestamptz)`,
      ),
    )
    .as('recent');
  const rows = await db
    .select()
    .from(recent)
    .where(lte(recent.newest, LOOK_BACK))
    .orderBy(recent.userId, recent.newest);
  const streaks = new Map<string, FailedTrade[]>();
  const ended = new Set<string>();
  for (const row of rows) {
    // Newest first per user: the streak runs until the first trade that did not fail.
    if (ended.has(row.userId)) continue;
    if (row.status !== 'failed' || !row.closedAt) {
      ended.add(row.userId);
      continue;
    }
    const streak = streaks.get(row.userId) ?? [];
    streak.push({ symbol: row.symbol, closedAt: row.closedAt, reason: row.reason });
    streaks.set(row.userId, streak);
  }
  for (const streak of streaks.values()) streak.reverse();
  return streaks;
}
