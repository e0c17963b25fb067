// The admin's global kill switch: one row, read by every instance's engine before it opens a trade.
import { eq } from 'drizzle-orm';
import type { TradingHaltState } from '../../../contract/guard';
import type { Db } from '../client';
import { tradingHalt } from '../schema';

const GLOBAL = 'global';

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
  await db
    .insert(tradingHalt)
    .values({ id: GLOBAL, ...values })
    .onConflictDoUpdate({ target: tradingHalt.id, set: values });
  return readTradingHalt(db);
}
