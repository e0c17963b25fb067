import { integer, numeric, pgTable, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Each user's trading figures, kept up to date as trades change so that reading them costs the same for 10 or 100,000
 * trades. Written only by the `trades_keep_figures` trigger (migration 0006) in the transaction that writes the trade:
 * each insert, update or delete subtracts the old row's contribution and adds the new one's, by the contract's rules
 * (contract/figures.ts). A user without a row has no trades. Sums are unbounded numerics: exact, as the sums of the
 * trades' numeric(28,10) profits were.
 */
export const tradeFigures = pgTable('trade_figures', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  totalTrades: integer('total_trades').notNull().default(0),
  successfulTrades: integer('successful_trades').notNull().default(0),
  failedTrades: integer('failed_trades').notNull().default(0),
  winningTrades: integer('winning_trades').notNull().default(0),
  decidedTrades: integer('decided_trades').notNull().default(0),
  totalProfit: numeric('total_profit').notNull().default('0'),
  netProfit: numeric('net_profit').notNull().default('0'),
});

export type TradeFiguresRow = typeof tradeFigures.$inferSelect;
