import { boolean, pgTable, uuid } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns';
import { users } from './users';

/** Which notifications a user wants (contract/notifications.ts); no row means every default, all on. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tradeCompleted: boolean('trade_completed').notNull().default(true),
  tradeFailed: boolean('trade_failed').notNull().default(true),
  tradingPaused: boolean('trading_paused').notNull().default(true),
  maxLoss: boolean('max_loss').notNull().default(true),
  killSwitch: boolean('kill_switch').notNull().default(true),
  updatedAt: updatedAt(),
});
