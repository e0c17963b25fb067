import { doublePrecision, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { SymbolId } from '../../../contract/domain';

/**
 * The spread history's last day: one row per symbol and second, the venues' mid prices and the spread between them
 * as the engine saw them. Rolled up into spread_minutes after a day (repositories/spread-history.ts).
 *
 * Prices and spreads are `double precision`, not `numeric`: they are observations of the market, charted and
 * averaged, never balances that money arithmetic adds up. A double carries 15–17 significant digits, more than any
 * quote has (a BTC mid is 8–10), so a stored price reads back exactly as it was written; it is half the size of a
 * numeric of that precision and PostgreSQL averages it in hardware. A backtest that turns a price into money reads
 * it into decimal.js from its exact decimal form.
 */
export const spreadSamples = pgTable(
  'spread_samples',
  {
    symbol: text('symbol').$type<SymbolId>().notNull(),
    /** Start of the second. */
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    binance: doublePrecision('binance').notNull(),
    deriv: doublePrecision('deriv').notNull(),
    spread: doublePrecision('spread').notNull(),
  },
  // Unique per symbol and second, so a sample written twice (a retried batch, a second recorder) is one row.
  (t) => [primaryKey({ columns: [t.symbol, t.at] }), index('spread_samples_at_idx').on(t.at)],
);

export type SpreadSampleRow = typeof spreadSamples.$inferSelect;
