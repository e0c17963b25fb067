import { doublePrecision, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { SymbolId } from '../../../contract/domain';

/**
 * The spread history older than a day: one row per symbol and minute, the average of that minute's one-second
 * samples (weighted by `samples`, so partial minutes merge exactly) and the spread's extremes, which an average would
 * hide. `double precision` for the reason given in spread-samples.ts.
 */
export const spreadMinutes = pgTable(
  'spread_minutes',
  {
    symbol: text('symbol').$type<SymbolId>().notNull(),
    /** Start of the minute. */
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    /** How many one-second samples the averages stand for. */
    samples: integer('samples').notNull(),
    binance: doublePrecision('binance').notNull(),
    deriv: doublePrecision('deriv').notNull(),
    spread: doublePrecision('spread').notNull(),
    spreadLow: doublePrecision('spread_low').notNull(),
    spreadHigh: doublePrecision('spread_high').notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.at] }), index('spread_minutes_at_idx').on(t.at)],
);

export type SpreadMinuteRow = typeof spreadMinutes.$inferSelect;
