// Bulk seeding for benchmarks: users through the ORM, trades generated inside the database by
// INSERT ... SELECT generate_series, so a million rows never cross the wire one by one; the users' kept figures
// (trade_figures) recounted once after the load.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { recountTradeFigures } from '../../server/db/repositories/stats';
import { users } from '../../server/db/schema/users';

export interface SeededUser {
  id: string;
  email: string;
}

/** Users sharing one password hash (argon2 embeds its salt, so one hash serves them all). */
export async function seedUsers(db: Db, count: number, passwordHash: string, prefix = 'bench'): Promise<SeededUser[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    username: `${prefix}${i}`,
    email: `${prefix}${i}@bench.test`,
    passwordHash,
  }));
  const inserted = await db.insert(users).values(rows).returning({ id: users.id, email: users.email });
  return inserted;
}

/**
 * Inserts `count` trades spread round-robin over the given users, in chunks (one statement each) so progress can be
 * reported. Per user the trades are one minute apart, newest last; symbols alternate; statuses follow a realistic
 * mix (70 % completed, 15 % failed, 10 % cancelled, 5 % pending) that does not line up with the symbol.
 */
export async function seedTrades(
  db: Db,
  userIds: string[],
  count: number,
  onProgress?: (done: number) => void,
  chunk = 100_000,
  /** Stem of the generated trade ids, unique per call when one database is seeded by several calls. */
  idPrefix = 'BENCH',
): Promise<void> {
  // Building an index once over a million rows is several times cheaper than updating five of them row by row, so
  // the secondary indexes are dropped for the load and rebuilt from their own saved definitions afterwards.
  const saved = await rows<{ indexname: string; indexdef: string }>(
    db,
    sql`SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.tablename = 'trades' AND i.schemaname = current_schema()
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const index of saved) await db.execute(sql.raw(`DROP INDEX "${index.indexname}"`));
  // Likewise the trigger that keeps each user's figures (migration 0006) would upsert a figures row once per inserted
  // trade: the load runs without it and the figures are recounted in one statement after, as the migration's backfill.
  await db.execute(sql`ALTER TABLE trades DISABLE TRIGGER trades_keep_figures`);
  try {
    await insertTrades(db, userIds, count, onProgress, chunk, idPrefix);
  } finally {
    await db.execute(sql`ALTER TABLE trades ENABLE TRIGGER trades_keep_figures`);
    for (const index of saved) await db.execute(sql.raw(index.indexdef));
  }
  await recountTradeFigures(db);
  // What autovacuum would have done on a live system: planner statistics and the visibility map that lets the
  // page query and the count run as index-only scans.
  await db.execute(sql`VACUUM ANALYZE trades`);
}

/** Result rows of a raw statement; node-postgres and PGlite both answer with `rows`. */
async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function insertTrades(
  db: Db,
  userIds: string[],
  count: number,
  onProgress: ((done: number) => void) | undefined,
  chunk: number,
  idPrefix: string,
) {
  const stem = `${idPrefix}-`;
  const idList = userIds.join(',');
  const n = userIds.length;
  // Per user one trade a minute, ending about now.
  const start = Math.floor(Date.now() / 1000) - Math.ceil(count / userIds.length) * 60;
  for (let from = 0; from < count; from += chunk) {
    const to = Math.min(count, from + chunk) - 1;
    await db.execute(sql`
      INSERT INTO trades (trade_id, user_id, symbol, status, origin, total_amount, arbitrage_spread, actual_profit,
                          reason, legs, created_at, updated_at, closed_at)
      SELECT ${stem}::text || g,
             ids[1 + g % ${n}],
             CASE WHEN (g / ${n}) % 2 = 0 THEN 'BTC/USDT' ELSE 'ETH/USDT' END,
             CASE WHEN m < 70 THEN 'completed' WHEN m < 85 THEN 'failed' WHEN m < 95 THEN 'cancelled' ELSE 'pending' END,
             'auto',
             (100 + (g % 900))::numeric,
             ((g % 50) / 10000.0 + 0.002)::numeric,
             CASE WHEN m < 70 THEN ((g % 200) - 60) / 100.0 ELSE 0 END,
             CASE WHEN m < 70 THEN 'converged' WHEN m < 85 THEN 'leg rejected' WHEN m < 95 THEN 'cancelled by user' ELSE NULL END,
             jsonb_build_array(
               jsonb_build_object('venue', 'binance', 'side', 'buy', 'clientOrderId', ${stem}::text || g || '-b',
                 'venueOrderId', (1000000 + g)::text, 'status', 'closed',
                 'open', jsonb_build_object('price', '60000.5', 'quantity', '0.0025', 'fee', '0.15', 'at', to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
                 'close', jsonb_build_object('price', '60010.5', 'quantity', '0.0025', 'fee', '0.15', 'at', to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))),
               jsonb_build_object('venue', 'deriv', 'side', 'sell', 'clientOrderId', ${stem}::text || g || '-d',
                 'venueOrderId', (2000000 + g)::text, 'status', 'closed',
                 'open', jsonb_build_object('price', '60150.0', 'quantity', '0.0025', 'fee', '0.10', 'at', to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
                 'close', jsonb_build_object('price', '60012.0', 'quantity', '0.0025', 'fee', '0.10', 'at', to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS"Z"')))),
             t, t, CASE WHEN m < 95 THEN t + interval '2 minutes' ELSE NULL END
      FROM (
        SELECT g, ((g / ${n * 2}) * 37 + g / 7) % 100 AS m,
               to_timestamp(${start}::bigint + (g / ${n}) * 60 + (g % ${n})) AS t
        FROM generate_series(${from}::bigint, ${to}::bigint) AS g
      ) AS s, (SELECT string_to_array(${idList}, ',')::uuid[] AS ids) AS u`);
    onProgress?.(to + 1);
  }
}
