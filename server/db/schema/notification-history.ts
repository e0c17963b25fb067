import { bigserial, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Every notification the server sent a user (contract/notification-history.ts), the newest NOTIFICATION_HISTORY_LIMIT
 * a user kept: a newer one lets the oldest go. `seq` orders them as they were sent and is the page cursor (a clock can
 * give two rows the same instant; a sequence cannot). Rows go with the user.
 */
export const notificationHistory = pgTable(
  'notification_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigserial('seq', { mode: 'number' }).notNull().unique('notification_history_seq_key'),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A NotificationKind or 'test'. */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    url: text('url').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('notification_history_user_seq_idx').on(t.userId, t.seq)],
);

export type NotificationHistoryRow = typeof notificationHistory.$inferSelect;
