// The caller's trades for the CSV export, read in keyset batches (newest first, on the trades_user_*_created indexes),
// so a year of trades streams through a fixed amount of memory: one batch at a time, never the whole result.
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { CsvTrade } from '../../../contract/csv';
import type { SymbolId, TradeStatus } from '../../../contract/domain';
import type { Db } from '../client';
import { trades, type StoredFill } from '../schema/trades';

export interface TradeExportFilter {
  status?: TradeStatus;
  symbol?: SymbolId;
  /** Opening time, inclusive. */
  from?: Date;
  /** Opening time, exclusive. */
  to?: Date;
}

export const EXPORT_BATCH_SIZE = 1000;

/** Where the previous batch ended: the created_at text PostgreSQL gave (microseconds kept; a JS Date would drop them). */
interface Cursor {
  createdAt: string;
  id: string;
}

const fillOf = (fill: StoredFill | null) =>
  fill ? { price: fill.price, quantity: fill.quantity, fee: fill.fee, at: fill.at } : null;

/** Batches of CSV-ready trades (decimals as the exact strings stored), newest first, until the filter is exhausted. */
export async function* exportTradeBatches(
  db: Db,
  userId: string,
  filter: TradeExportFilter,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<CsvTrade[]> {
  const base: SQL[] = [eq(trades.userId, userId)];
  if (filter.status) base.push(eq(trades.status, filter.status));
  if (filter.symbol) base.push(eq(trades.symbol, filter.symbol));
  if (filter.from) base.push(gte(trades.createdAt, filter.from));
  if (filter.to) base.push(lt(trades.createdAt, filter.to));
  let cursor: Cursor | null = null;
  for (;;) {
    const where: SQL[] = cursor
      ? [...base, sql`(${trades.createdAt}, ${trades.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`]
      : base;
    const rows = await db
      .select({
        id: trades.id,
        tradeId: trades.tradeId,
        symbol: trades.symbol,
        status: trades.status,
        origin: trades.origin,
        totalAmount: trades.totalAmount,
        arbitrageSpread: trades.arbitrageSpread,
        actualProfit: trades.actualProfit,
        reason: trades.reason,
        legs: trades.legs,
        createdAt: trades.createdAt,
        closedAt: trades.closedAt,
        cursorAt: sql<string>`${trades.createdAt}::text`,
      })
      .from(trades)
      .where(and(...where))
      // Spelled as the indexes are built (see repositories/trades.ts), so the planner walks one of them.
      .orderBy(sql`${trades.createdAt} desc nulls last`, sql`${trades.id} desc nulls last`)
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      _id: row.id,
      tradeId: row.tradeId,
      symbol: row.symbol,
      status: row.status,
      origin: row.origin,
      totalAmount: row.totalAmount,
      arbitrageSpread: row.arbitrageSpread,
      actualProfit: row.actualProfit,
      reason: row.reason,
      createdAt: row.createdAt.toISOString(),
      closedAt: row.closedAt ? row.closedAt.toISOString() : null,
      legs: (row.legs ?? []).map((leg) => ({
        venue: leg.venue,
        side: leg.side,
        open: fillOf(leg.open),
        close: fillOf(leg.close),
      })),
    }));
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    if (!last) return;
    cursor = { createdAt: last.cursorAt, id: last.id };
  }
}
