// What a scrape reads from the database: users by engine state (their stored stop kind), open trades and their notional per symbol, and the
// admin's kill switch. Three small queries (the users table, the partial index of pending trades, one row), run at
// most once a second however many gauges or scrapers ask, and given up after a second when the database does not
// answer, so a scrape never hangs on it.
import { eq, sql } from 'drizzle-orm';
import type { EngineState } from '../../../contract/entities';
import type { SymbolId } from '../../../contract/domain';
import type { Db } from '../../db/client';
import { within } from '../../db/probe';
import { isTradingHalted } from '../../db/repositories/trading-halt';
import { trades } from '../../db/schema/trades';
import { users } from '../../db/schema/users';
import { engineStateOf } from '../../../contract/trading-state';

export interface DbFigures {
  users: Record<EngineState, number>;
  open: Array<{ symbol: SymbolId; trades: number; notional: number }>;
  halted: boolean;
}

export async function readDbFigures(db: Db): Promise<DbFigures> {
  const [groups, open, halted] = await Promise.all([
    db
      .select({ stop: users.tradingStop, count: sql<number>`count(*)::int` })
      .from(users)
      .where(eq(users.isActive, true))
      .groupBy(users.tradingStop),
    db
      .select({
        symbol: trades.symbol,
        trades: sql<number>`count(*)::int`,
        notional: sql<string>`coalesce(sum(${trades.totalAmount}), 0)::text`,
      })
      .from(trades)
      .where(eq(trades.status, 'pending'))
      .groupBy(trades.symbol),
    isTradingHalted(db),
  ]);
  const byState: Record<EngineState, number> = { running: 0, paused: 0, halted: 0, off: 0 };
  // The stored stop kind read as the contract reads it (contract/trading-state.ts), so the metric and the cockpit agree.
  for (const g of groups) byState[engineStateOf(g.stop)] += Number(g.count);
  return {
    users: byState,
    open: open.map((o) => ({ symbol: o.symbol, trades: Number(o.trades), notional: Number(o.notional) })),
    halted,
  };
}

/** `read` shared by the gauges of one scrape: one run at a time, its answer reused for `forMs`. */
export function sharedReading<T>(read: () => Promise<T>, forMs: number, timeoutMs: number): () => Promise<T | null> {
  let last: { at: number; value: Promise<T | null> } | null = null;
  return () => {
    const now = Date.now();
    if (last && now - last.at < forMs) return last.value;
    const value = within(read(), timeoutMs, 'metrics').catch(() => null);
    last = { at: now, value };
    return value;
  };
}
