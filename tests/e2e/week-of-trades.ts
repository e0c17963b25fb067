// A data directory holding a trader with a week of finished trades and a week of recorded spread history, written
// before the product starts on it (the embedded database has one owner at a time). The trades come in bursts, as an
// engine trades when the spread opens up: several opens and closes within minutes is what the charts must stay
// legible with.
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client';
import { recountTradeFigures } from '../../server/db/repositories/stats';
import { hashPassword } from '../../server/security/passwords';
import { seedUsers } from '../../bench/lib/seed';

export const WEEK_TRADER = { email: 'week0@bench.test', password: 'Week-trader-password-1' };

/** Bursts of trades over the last 7 days, the last one minutes ago so the 15 min and 1 h ranges hold markers too. */
const BURSTS_PER_DAY = 6;
const TRADES_PER_BURST = 5;

export async function seedWeekOfTrades(dataDir: string, now = Date.now()): Promise<{ trades: number }> {
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    const { db } = database;
    const [user] = await seedUsers(db, 1, await hashPassword(WEEK_TRADER.password), 'week');
    const nowS = Math.floor(now / 1000);
    const bursts = 7 * BURSTS_PER_DAY;
    const count = bursts * TRADES_PER_BURST;
    // Burst b starts (bursts - 1 - b) * 4 h before now, minus about 4 min; its trades open 40 s apart and close 90 s
    // later, on one pair (two bursts in three on BTC/USDT, the pair shown first, the last one included), so opens and
    // closes interleave within seconds of each other.
    await db.execute(sql`
      INSERT INTO trades (trade_id, user_id, symbol, status, origin, total_amount, arbitrage_spread, actual_profit,
                          reason, legs, created_at, updated_at, closed_at)
      SELECT 'WEEK-' || g, ${user!.id}::uuid,
             CASE WHEN (${bursts - 1} - g / ${TRADES_PER_BURST}) % 3 = 2 THEN 'ETH/USDT' ELSE 'BTC/USDT' END,
             CASE WHEN g % 7 = 3 THEN 'failed' ELSE 'completed' END, 'auto',
             (100 + (g % 9) * 50)::numeric, (0.003 + (g % 5) / 2000.0)::numeric,
             CASE WHEN g % 7 = 3 THEN 0 ELSE ((g * 37) % 300 - 90) / 100.0 END,
             CASE WHEN g % 7 = 3 THEN 'leg rejected' ELSE 'converged' END,
             jsonb_build_array(
               jsonb_build_object('venue', 'binance', 'side', 'buy', 'clientOrderId', 'WEEK-' || g || '-b',
                 'venueOrderId', (1000000 + g)::text, 'status', 'closed',
                 'open', jsonb_build_object('price', '60000.5', 'quantity', '0.0025', 'fee', '0.15', 'at', to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
                 'close', jsonb_build_object('price', '60010.5', 'quantity', '0.0025', 'fee', '0.15', 'at', to_char(t + interval '90 seconds', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))),
               jsonb_build_object('venue', 'deriv', 'side', 'sell', 'clientOrderId', 'WEEK-' || g || '-d',
                 'venueOrderId', (2000000 + g)::text, 'status', 'closed',
                 'open', jsonb_build_object('price', '60150.0', 'quantity', '0.0025', 'fee', '0.10', 'at', to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
                 'close', jsonb_build_object('price', '60012.0', 'quantity', '0.0025', 'fee', '0.10', 'at', to_char(t + interval '90 seconds', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')))),
             t, t + interval '90 seconds', t + interval '90 seconds'
      FROM (
        SELECT g, to_timestamp(${nowS}::bigint - 60 - (${bursts} - 1 - g / ${TRADES_PER_BURST}) * 14400
                               + (g % ${TRADES_PER_BURST}) * 40 - ${TRADES_PER_BURST * 40}) AS t
        FROM generate_series(0, ${count - 1}) AS g
      ) AS s`);
    await recountTradeFigures(db);
    // A minute of spread history for each pair over the week, as the recorder's roll-up leaves it: a slow swell with
    // faster ripples, crossing zero, so the scale and the threshold lines have something to frame.
    await db.execute(sql`
      INSERT INTO spread_minutes (symbol, at, samples, binance, deriv, spread, spread_low, spread_high)
      SELECT sym, to_timestamp(m * 60), 60, base, base * (1 + s), s, s - 0.0004, s + 0.0004
      FROM (
        SELECT sym, m, CASE sym WHEN 'BTC/USDT' THEN 60000.0 ELSE 3000.0 END AS base,
               0.0025 * sin(m / 240.0) + 0.001 * sin(m / 17.0 + length(sym)) AS s
        FROM generate_series(${Math.floor(nowS / 60) - 7 * 1440}::bigint, ${Math.floor(nowS / 60)}::bigint) AS m,
             unnest(ARRAY['BTC/USDT', 'ETH/USDT']) AS sym
      ) AS w`);
    return { trades: count };
  } finally {
    await database.close();
  }
}
