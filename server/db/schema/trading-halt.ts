import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The admin's global kill switch, one row (id = 'global'). In the database, so every instance and every restart
 * sees the same state: the engine reads it before each trade it opens.
 */
export const tradingHalt = pgTable('trading_halt', {
  id: text('id').primaryKey(),
  halted: boolean('halted').notNull().default(false),
  reason: text('reason').notNull().default(''),
  changedBy: uuid('changed_by'),
  changedByName: text('changed_by_name').notNull().default(''),
  changedAt: timestamp('changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type TradingHaltRow = typeof tradingHalt.$inferSelect;
