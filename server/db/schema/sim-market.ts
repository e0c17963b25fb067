import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { SymbolId } from '../../../contract/domain';
import type { SymbolState } from '../../venues/sim/model';

/**
 * The simulated market's state per symbol (latent price, the lagged history the venues follow, basis, dislocation,
 * each venue's last quote), saved about every second by the instance that trades and on shutdown. A restart or a
 * failover continues from it, so the price path has no jump and trades recovered after a crash close at prices that
 * continue the ones they opened at.
 */
export const simMarket = pgTable('sim_market', {
  symbol: text('symbol').$type<SymbolId>().primaryKey(),
  state: jsonb('state').$type<SymbolState>().notNull(),
  savedAt: timestamp('saved_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type SimMarketRow = typeof simMarket.$inferSelect;
