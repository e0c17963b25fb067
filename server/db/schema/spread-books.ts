import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { SymbolId } from '../../../contract/domain';

/**
 * What the engine decided on: both venues' bid and ask at the engine's own ticks, so a backtest replays the very
 * books the engine traded on (engine/replay). Every tick is kept while a symbol's spread is near an opening threshold
 * or the symbol has a trade in flight (`dense`); one tick a second otherwise. After a day the once-a-second rows are
 * thinned to one a minute; dense rows are kept for the whole retention (repositories/spread-books.ts).
 *
 * `double precision` for the reason given in spread-samples.ts. A quote's own time is kept as its age at the tick
 * (the engine's clock minus the venue's timestamp), which the freshness and skew checks read.
 */
export const spreadBooks = pgTable(
  'spread_books',
  {
    symbol: text('symbol').$type<SymbolId>().notNull(),
    /** The engine's clock when it decided on the tick (ms precision). */
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Ticks of one symbol within the same millisecond, in the order the engine saw them (0, 1, …). */
    seq: smallint('seq').notNull(),
    binanceBid: doublePrecision('binance_bid').notNull(),
    binanceAsk: doublePrecision('binance_ask').notNull(),
    binanceAgeMs: integer('binance_age_ms').notNull(),
    derivBid: doublePrecision('deriv_bid').notNull(),
    derivAsk: doublePrecision('deriv_ask').notNull(),
    derivAgeMs: integer('deriv_age_ms').notNull(),
    /** Taken because the spread was near a threshold or a trade was in flight (every tick), not the 1 s sample. */
    dense: boolean('dense').notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.at, t.seq] }), index('spread_books_at_idx').on(t.at)],
);

export type SpreadBookRow = typeof spreadBooks.$inferSelect;
