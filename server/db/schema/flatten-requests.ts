import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's Stop & flatten waiting for the engine instance. Written by whichever instance took the request; the
 * leading engine closes the user's open trades and deletes the row on its next settings sync, so a request made on an
 * API-only or standby instance, or just before a restart or failover, is still carried out.
 */
export const flattenRequests = pgTable('flatten_requests', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  /** Why the trades close, as each trade's reason: the user's Stop & flatten, or an admin closing the account. */
  reason: text('reason').notNull().default('stop & flatten'),
});
