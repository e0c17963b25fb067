// The books the engine decided on (spread_books): written in batches by the recorder, thinned and expired by its
// maintenance, and read in columns by a backtest.
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { SymbolId } from '../../../contract/domain';
import type { Db } from '../client';
import { spreadBooks } from '../schema/spread-books';

/** One engine tick as recorded: both venues' quotes and the engine's clock when it decided on them. */
export interface SpreadBook {
  symbol: SymbolId;
  /** The engine's clock, ms since epoch. */
  t: number;
  /** Ticks of the symbol earlier in the same millisecond. */
  seq: number;
  binanceBid: number;
  binanceAsk: number;
  /** The venue's own timestamp of its quote, ms since epoch. */
  binanceTs: number;
  derivBid: number;
  derivAsk: number;
  derivTs: number;
  dense: boolean;
}

/** Rows per INSERT: ten parameters a row, well inside PostgreSQL's 65,535 parameters a statement. */
const INSERT_CHUNK = 3000;

/** Writes recorded ticks; a tick already stored (same symbol, millisecond and order) is left as it is. */
export async function insertSpreadBooks(db: Db, books: readonly SpreadBook[]): Promise<void> {
  for (let i = 0; i < books.length; i += INSERT_CHUNK) {
    const rows = books.slice(i, i + INSERT_CHUNK).map((b) => ({
      symbol: b.symbol,
      at: new Date(b.t),
      seq: b.seq,
      binanceBid: b.binanceBid,
      binanceAsk: b.binanceAsk,
      binanceAgeMs: Math.round(b.t - b.binanceTs),
      derivBid: b.derivBid,
      derivAsk: b.derivAsk,
      derivAgeMs: Math.round(b.t - b.derivTs),
      dense: b.dense,
    }));
    await db.insert(spreadBooks).values(rows).onConflictDoNothing();
  }
}

/**
 * The once-a-second rows older than `before` are thinned to the first of each symbol's minute, as the mids are rolled
 * up into minutes after a day (an average of bids and asks would be a book nobody quoted). Rows taken near a
 * threshold are kept: they are what a backtest's decisions are made on. Returns how many rows were removed.
 */
export async function thinSpreadBooks(db: Db, before: Date): Promise<number> {
  const removed = await db
    .delete(spreadBooks)
    .where(
      and(
        eq(spreadBooks.dense, false),
        lt(spreadBooks.at, before),
        sql`EXISTS (SELECT 1 FROM spread_books o WHERE o.symbol = ${spreadBooks.symbol} AND NOT o.dense
          AND o.at >= date_trunc('minute', ${spreadBooks.at}) AND (o.at, o.seq) < (${spreadBooks.at}, ${spreadBooks.seq}))`,
      ),
    )
    .returning({ at: spreadBooks.at });
  return removed.length;
}

export async function deleteSpreadBooksBefore(db: Db, before: Date): Promise<void> {
  await db.delete(spreadBooks).where(lt(spreadBooks.at, before));
}

export async function spreadBooksSize(db: Db): Promise<{ dense: number; sparse: number }> {
  const rows = await db
    .select({ dense: spreadBooks.dense, n: sql<number>`count(*)::int` })
    .from(spreadBooks)
    .groupBy(spreadBooks.dense);
  return {
    dense: Number(rows.find((r) => r.dense)?.n ?? 0),
    sparse: Number(rows.find((r) => !r.dense)?.n ?? 0),
  };
}

/** One symbol's recorded ticks in [from, to), oldest first (ties in the engine's order), as parallel arrays. */
export interface BookSeries {
  symbol: SymbolId;
  t: number[];
  binanceBid: number[];
  binanceAsk: number[];
  binanceTs: number[];
  derivBid: number[];
  derivAsk: number[];
  derivTs: number[];
}

/**
 * Every recorded tick of the symbols in [from, to), one row per symbol with each column aggregated into an array in
 * the engine's order (the reason is given at readReplayHistory).
 */
export async function readReplayBooks(
  db: Db,
  symbols: readonly SymbolId[],
  from: Date,
  to: Date,
): Promise<BookSeries[]> {
  const order = sql`order by ${spreadBooks.at}, ${spreadBooks.seq}`;
  const ms = sql`round(extract(epoch from ${spreadBooks.at}) * 1000)::double precision`;
  const agg = (column: unknown) => sql<number[]>`array_agg(${column} ${order})`;
  const rows = await db
    .select({
      symbol: spreadBooks.symbol,
      t: agg(ms),
      binanceBid: agg(spreadBooks.binanceBid),
      binanceAsk: agg(spreadBooks.binanceAsk),
      binanceAge: agg(spreadBooks.binanceAgeMs),
      derivBid: agg(spreadBooks.derivBid),
      derivAsk: agg(spreadBooks.derivAsk),
      derivAge: agg(spreadBooks.derivAgeMs),
    })
    .from(spreadBooks)
    .where(and(inArray(spreadBooks.symbol, [...symbols]), gte(spreadBooks.at, from), lt(spreadBooks.at, to)))
    .groupBy(spreadBooks.symbol)
    .orderBy(asc(spreadBooks.symbol));
  return rows.map((r) => {
    const t = r.t.map(Number);
    return {
      symbol: r.symbol,
      t,
      binanceBid: r.binanceBid.map(Number),
      binanceAsk: r.binanceAsk.map(Number),
      binanceTs: r.binanceAge.map((age, i) => t[i]! - Number(age)),
      derivBid: r.derivBid.map(Number),
      derivAsk: r.derivAsk.map(Number),
      derivTs: r.derivAge.map((age, i) => t[i]! - Number(age)),
    };
  });
}
