// Writes to the trades table. A trade and both of its legs are inserted before any order is placed (write-ahead);
// each later step updates legs, status and profit in one statement, so a reader or a restart never sees half a step.
// The engine's storage adapter (server/engine/storage/) maps its trade state onto these rows.
import { eq, gte } from 'drizzle-orm';
import type { VenueId } from '../../../contract/domain';
import type { Db } from '../client';
import { trades, type NewTradeRow, type TradeRow } from '../schema/trades';

/** What a step of a trade changes. */
export type TradeStep = Pick<NewTradeRow, 'status' | 'legs' | 'actualProfit' | 'reason' | 'closedAt'>;

export async function insertTrade(db: Db, row: NewTradeRow): Promise<TradeRow> {
  const [inserted] = await db.insert(trades).values(row).returning();
  if (!inserted) throw new Error(`Trade ${row.tradeId} was not inserted`);
  return inserted;
}

/** Several trades in one statement, answered in the order given (the engine's write-ahead on a burst). */
export async function insertTrades(db: Db, rows: NewTradeRow[]): Promise<TradeRow[]> {
  if (rows.length === 0) return [];
  const inserted = await db.insert(trades).values(rows).returning();
  const byId = new Map(inserted.map((row) => [row.tradeId, row]));
  return rows.map((row) => {
    const found = byId.get(row.tradeId);
    if (!found) throw new Error(`Trade ${row.tradeId} was not inserted`);
    return found;
  });
}

export async function updateTrade(db: Db, id: string, step: TradeStep): Promise<TradeRow | null> {
  const [row] = await db
    .update(trades)
    .set({ ...step, updatedAt: new Date() })
    .where(eq(trades.id, id))
    .returning();
  return row ?? null;
}

/** Every trade left pending (any user), oldest first. */
export function pendingTrades(db: Db): Promise<TradeRow[]> {
  return db.select().from(trades).where(eq(trades.status, 'pending')).orderBy(trades.createdAt);
}

/** The venue order ids the legs of trades created since `since` hold on one venue. */
export async function venueOrderIdsSince(db: Db, venue: VenueId, since: Date): Promise<Set<string>> {
  const rows = await db.select({ legs: trades.legs }).from(trades).where(gte(trades.createdAt, since));
  const ids = new Set<string>();
  for (const { legs } of rows)
    for (const leg of legs) if (leg.venue === venue && leg.venueOrderId) ids.add(leg.venueOrderId);
  return ids;
}
