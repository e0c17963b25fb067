// Writes to the trades table. A trade and both of its legs are inserted before any order is placed (write-ahead);
// each later step updates legs, status and profit in one statement, so a reader or a restart never sees half a step.
// The engine's storage adapter (server/engine/storage/) maps its trade state onto these rows.
import { eq, getTableColumns, gte, sql } from 'drizzle-orm';
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

/**
 * Steps of several trades in one statement (the engine's saves on a burst), answered in the order given: each trade's
 * row as written, or null where the row is gone (its user was deleted). Each trade at most once per call.
 */
export async function updateTrades(
  db: Db,
  steps: ReadonlyArray<{ id: string; step: TradeStep }>,
): Promise<Array<TradeRow | null>> {
  if (steps.length === 0) return [];
  const column = <T>(pick: (s: { id: string; step: TradeStep }) => T) => sql.param(steps.map(pick));
  const values = sql`unnest(
    ${column((s) => s.id)}::uuid[],
    ${column((s) => s.step.status ?? null)}::text[],
    ${column((s) => JSON.stringify(s.step.legs ?? []))}::jsonb[],
    ${column((s) => s.step.actualProfit ?? null)}::numeric[],
    ${column((s) => s.step.reason ?? null)}::text[],
    ${column((s) => s.step.closedAt?.toISOString() ?? null)}::timestamptz[]
  ) AS step(id, status, legs, actual_profit, reason, closed_at)`;
  const rows = await db
    .update(trades)
    .set({
      status: sql`step.status`,
      legs: sql`step.legs`,
      actualProfit: sql`step.actual_profit`,
      reason: sql`step.reason`,
      closedAt: sql`step.closed_at`,
      updatedAt: new Date(),
    })
    .from(values)
    .where(sql`${trades.id} = step.id`)
    .returning(getTableColumns(trades));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return steps.map((s) => byId.get(s.id) ?? null);
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
