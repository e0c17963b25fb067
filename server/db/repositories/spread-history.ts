// The recorded spread history: one-second samples for the last day (spread_samples), minute roll-ups before that
// (spread_minutes), and the series a chart asks for, averaged into buckets by the database.
import { and, eq, gte, inArray, lt, sql, type SQLWrapper } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { SymbolId } from '../../../contract/domain';
import type { SpreadPoint } from '../../../contract/entities';
import type { SpreadSample } from '../../../contract/spreads';
import type { Db } from '../client';
import { spreadMinutes } from '../schema/spread-minutes';
import { spreadSamples } from '../schema/spread-samples';

/** Arbitrary but fixed: serialises roll-ups across instances. */
const ROLLUP_LOCK_KEY = 7_340_211_906;

/** Rows per INSERT: five parameters a row, well inside PostgreSQL's 65,535 parameters a statement. */
const INSERT_CHUNK = 2000;

/** Writes one-second samples; a sample already stored for its symbol and second is left as it is. */
export async function insertSpreadSamples(db: Db, samples: readonly SpreadSample[]): Promise<void> {
  for (let i = 0; i < samples.length; i += INSERT_CHUNK) {
    const rows = samples
      .slice(i, i + INSERT_CHUNK)
      .map((s) => ({ symbol: s.symbol, at: new Date(s.t), binance: s.binance, deriv: s.deriv, spread: s.spread }));
    await db.insert(spreadSamples).values(rows).onConflictDoNothing();
  }
}

/**
 * Folds the one-second samples older than `before` into minute rows and deletes them, in one transaction. A minute
 * that already has a row (a roll-up that stopped at a boundary inside it) is merged, weighted by sample counts.
 * Returns how many samples were rolled up.
 */
export async function rollUpSpreadSamples(db: Db, before: Date): Promise<number> {
  return db.transaction(async (tx) => {
    // Two roll-ups at once (a new leader while the old one finishes) would both read the same samples and merge them
    // twice; the second waits here, and its statements then see the first one's work.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ROLLUP_LOCK_KEY})`);
    const minute = sql`date_trunc('minute', ${spreadSamples.at})`;
    const old = lt(spreadSamples.at, before);
    const summary = tx
      .select({
        symbol: spreadSamples.symbol,
        at: sql`${minute}`.as('at'),
        samples: sql`count(*)::int`.as('samples'),
        binance: sql`avg(${spreadSamples.binance})`.as('binance'),
        deriv: sql`avg(${spreadSamples.deriv})`.as('deriv'),
        spread: sql`avg(${spreadSamples.spread})`.as('spread'),
        spreadLow: sql`min(${spreadSamples.spread})`.as('spread_low'),
        spreadHigh: sql`max(${spreadSamples.spread})`.as('spread_high'),
      })
      .from(spreadSamples)
      .where(old)
      .groupBy(spreadSamples.symbol, minute);
    const weighted = (column: string) =>
      sql.raw(
        `(spread_minutes.${column} * spread_minutes.samples + excluded.${column} * excluded.samples) / (spread_minutes.samples + excluded.samples)`,
      );
    await tx
      .insert(spreadMinutes)
      .select(summary)
      .onConflictDoUpdate({
        target: [spreadMinutes.symbol, spreadMinutes.at],
        set: {
          binance: weighted('binance'),
          deriv: weighted('deriv'),
          spread: weighted('spread'),
          spreadLow: sql`least(${spreadMinutes.spreadLow}, excluded.spread_low)`,
          spreadHigh: sql`greatest(${spreadMinutes.spreadHigh}, excluded.spread_high)`,
          samples: sql`${spreadMinutes.samples} + excluded.samples`,
        },
      });
    const deleted = await tx.delete(spreadSamples).where(old).returning({ at: spreadSamples.at });
    return deleted.length;
  });
}

/** Deletes everything recorded before `before`, at both resolutions. */
export async function deleteSpreadHistoryBefore(db: Db, before: Date): Promise<void> {
  await db.delete(spreadSamples).where(lt(spreadSamples.at, before));
  await db.delete(spreadMinutes).where(lt(spreadMinutes.at, before));
}

/**
 * A symbol's history in [from, to) averaged into buckets of `resolutionSeconds` (aligned to the epoch), oldest
 * first. Seconds and minutes are weighted by how many samples each stands for; buckets without data are absent.
 */
export async function readSpreadSeries(
  db: Db,
  symbol: SymbolId,
  from: Date,
  to: Date,
  resolutionSeconds: number,
): Promise<SpreadPoint[]> {
  const seconds = db
    .select({
      at: spreadSamples.at,
      samples: sql<number>`1`.as('samples'),
      binance: spreadSamples.binance,
      deriv: spreadSamples.deriv,
      spread: spreadSamples.spread,
      spreadLow: sql<number>`${spreadSamples.spread}`.as('spread_low'),
      spreadHigh: sql<number>`${spreadSamples.spread}`.as('spread_high'),
    })
    .from(spreadSamples)
    .where(and(eq(spreadSamples.symbol, symbol), gte(spreadSamples.at, from), lt(spreadSamples.at, to)));
  const minutes = db
    .select({
      at: spreadMinutes.at,
      samples: spreadMinutes.samples,
      binance: spreadMinutes.binance,
      deriv: spreadMinutes.deriv,
      spread: spreadMinutes.spread,
      spreadLow: spreadMinutes.spreadLow,
      spreadHigh: spreadMinutes.spreadHigh,
    })
    .from(spreadMinutes)
    .where(and(eq(spreadMinutes.symbol, symbol), gte(spreadMinutes.at, from), lt(spreadMinutes.at, to)));
  const history = unionAll(seconds, minutes).as('history');
  const bucket = sql<number>`(floor(extract(epoch from ${history.at}) / ${resolutionSeconds}) * ${resolutionSeconds})::double precision`;
  const average = (column: SQLWrapper) =>
    sql<number>`(sum(${column} * ${history.samples}) / sum(${history.samples}))::double precision`;
  const rows = await db
    .select({
      bucket,
      binance: average(history.binance),
      deriv: average(history.deriv),
      spread: average(history.spread),
      spreadLow: sql<number>`min(${history.spreadLow})`,
      spreadHigh: sql<number>`max(${history.spreadHigh})`,
    })
    .from(history)
    // By position: the bucket expression carries the resolution as a parameter, and PostgreSQL does not match an
    // expression in GROUP BY to the select list's when their parameters are different placeholders.
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return rows.map((r) => ({
    t: Number(r.bucket) * 1000,
    binance: Number(r.binance),
    deriv: Number(r.deriv),
    spread: Number(r.spread),
    spreadLow: Number(r.spreadLow),
    spreadHigh: Number(r.spreadHigh),
  }));
}

/** Rows at each resolution, for tests and for watching the table stay bounded. */
export async function spreadHistorySize(db: Db): Promise<{ seconds: number; minutes: number }> {
  const [s] = await db.select({ n: sql<number>`count(*)::int` }).from(spreadSamples);
  const [m] = await db.select({ n: sql<number>`count(*)::int` }).from(spreadMinutes);
  return { seconds: Number(s?.n ?? 0), minutes: Number(m?.n ?? 0) };
}

/** One symbol's recorded samples at one resolution, oldest first, as parallel arrays. */
export interface ReplayHistorySeries {
  symbol: SymbolId;
  /** One-minute averages (older than a day) rather than one-second samples. */
  minute: boolean;
  /** ms since epoch. */
  t: number[];
  binance: number[];
  deriv: number[];
}

/**
 * Everything recorded for the symbols in [from, to), both resolutions: what a backtest replays. One row per symbol
 * and table, each column aggregated into an array in time order: a day of seconds is 172,800 samples, and the
 * drivers turn three arrays into numbers several times faster than they build 172,800 row objects. Seconds and
 * minutes never overlap: a roll-up deletes the seconds it folds, in one transaction.
 */
export async function readReplayHistory(
  db: Db,
  symbols: readonly SymbolId[],
  from: Date,
  to: Date,
): Promise<ReplayHistorySeries[]> {
  const read = async (
    table: typeof spreadSamples | typeof spreadMinutes,
    minute: boolean,
  ): Promise<ReplayHistorySeries[]> => {
    const rows = await db
      .select({
        symbol: table.symbol,
        t: sql<number[]>`array_agg((extract(epoch from ${table.at}) * 1000)::double precision order by ${table.at})`,
        binance: sql<number[]>`array_agg(${table.binance} order by ${table.at})`,
        deriv: sql<number[]>`array_agg(${table.deriv} order by ${table.at})`,
      })
      .from(table)
      .where(and(inArray(table.symbol, [...symbols]), gte(table.at, from), lt(table.at, to)))
      .groupBy(table.symbol);
    return rows.map((r) => ({
      symbol: r.symbol,
      minute,
      t: r.t.map(Number),
      binance: r.binance.map(Number),
      deriv: r.deriv.map(Number),
    }));
  };
  return [...(await read(spreadMinutes, true)), ...(await read(spreadSamples, false))];
}
