import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { VENUES, type Currency } from '../../../contract/domain';
import { money, updatedAt } from './columns';
import { users } from './users';

/** Holdings per user, venue and currency (paper balances in the simulated market, synced ones in live mode). */
export const balances = pgTable(
  'balances',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    venue: text('venue', { enum: VENUES }).notNull(),
    currency: text('currency').$type<Currency>().notNull(),
    amount: money('amount').notNull().default('0'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.venue, t.currency] })],
);

export type BalanceRow = typeof balances.$inferSelect;
