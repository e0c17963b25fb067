import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/**
 * One row per device (browser profile) that subscribed to web push for a user, at most MAX_PUSH_DEVICES a user. The
 * endpoint is the push service's URL for that device, unique per user: the same endpoint saved by another user is
 * that user's own row and never takes this one over. Rows go when the push service answers 404/410 (the subscription
 * expired or was revoked), when the endpoint no longer passes the egress check, when the device unsubscribes, when a
 * newer device pushes it out, or with the user.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    /** The device's P-256 public key and auth secret (base64url), which the payload is encrypted to (RFC 8291). */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('push_subscriptions_user_endpoint_idx').on(t.userId, t.endpoint)],
);

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
