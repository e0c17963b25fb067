// The admin's global kill switch: one row, read by every instance's engine before it opens a trade.
import { eq, sql } from 'drizzle-orm';
import type { TradingHaltState } from '../../../contract/guard';
import type { Db } from '../client';
import { tradingHalt } from '../schema';

const GLOBAL = 'global';
/**
 * Every change of the switch is announced on this channel at commit ('true' or 'false'), so every instance's engine
 * holds it in memory rather than reading it before each trade (server/engine/global-halt.ts).
 */
export const TRADING_HALT_CHANNEL = 'trading_halt';

export async function readTradingHalt(db: Db): Promise<TradingHaltState> {
  const [row] = await db.select().from(tradingHalt).where(eq(tradingHalt.id, GLOBAL)).limit(1);
  if (!row) return { halted: false, reason: '', changedBy: '', changedAt: null };
  return {
    halted: row.halted,
    reason: row.reason,
    changedBy: row.changedByName,
    changedAt: row.changedAt.toISOString(),
  };
}

export async function isTradingHalted(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ halted: tradingHalt.halted })
    .from(tradingHalt)
    .where(eq(tradingHalt.id, GLOBAL))
    .limit(1);
  return row?.halted ?? false;
}

export async function setTradingHalt(
  db: Db,
  change: { halted: boolean; reason: string; by: { id: string; name: string } },
): Promise<TradingHaltState> {
  const values = {
    halted: change.halted,
    reason: change.reason,
    changedBy: change.by.id,
    changedByName: change.by.name,
    changedAt: new Date(),
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(tradingHalt)
      .values({ id: GLOBAL, ...values })
      .onConflictDoUpdate({ target: tradingHalt.id, set: values });
    await tx.execute(sql`select pg_notify(${TRADING_HALT_CHANNEL}, ${String(change.halted)})`);
  });
  return readTradingHalt(db);
}
