// Web push storage: each user's subscribed devices and notification preferences.
import { and, count, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  MAX_PUSH_DEVICES,
  NOTIFICATION_KINDS,
  type NotificationPreferences,
} from '../../../contract/notifications';
import type { Db } from '../client';
import { notificationPreferences } from '../schema/notification-preferences';
import { pushSubscriptions, type PushSubscriptionRow } from '../schema/push-subscriptions';
import { lockUser } from './users';

export interface NewSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string;
}

/**
 * Saves a device for the user (the same endpoint again, a re-subscribe, refreshes it) and keeps only the user's
 * MAX_PUSH_DEVICES newest: the oldest goes. Rows are the user's own: the same endpoint saved by another user is
 * another row, and never moves this one. Returns how many older devices were let go.
 */
export async function saveSubscription(db: Db, userId: string, sub: NewSubscription): Promise<number> {
  return db.transaction(async (tx) => {
    // One registration per user at a time: two at once cannot both keep an eleventh device.
    await lockUser(tx, userId);
    await tx
      .insert(pushSubscriptions)
      .values({ userId, ...sub })
      .onConflictDoUpdate({
        target: [pushSubscriptions.userId, pushSubscriptions.endpoint],
        set: { p256dh: sub.p256dh, auth: sub.auth, userAgent: sub.userAgent, createdAt: sql`now()` },
      });
    const newest = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id))
      .limit(MAX_PUSH_DEVICES);
    const gone = await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, newest)))
      .returning({ id: pushSubscriptions.id });
    return gone.length;
  });
}

/** Removes the caller's device; another user's endpoint is left alone. Returns whether a row went. */
export async function removeSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return gone.length > 0;
}

/** The push service said the subscription is gone (404/410). */
export async function dropSubscriptions(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, ids));
}

export async function markSent(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0)
    await db
      .update(pushSubscriptions)
      .set({ lastSentAt: sql`now()` })
      .where(inArray(pushSubscriptions.id, ids));
}

export function subscriptionsOf(db: Db, userId: string): Promise<PushSubscriptionRow[]> {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}

/** Users with at least one device, for notices addressed to everyone (an admin's global halt). */
export async function subscribedUserIds(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ userId: pushSubscriptions.userId }).from(pushSubscriptions);
  return rows.map((r) => r.userId);
}

export async function deviceCount(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  return Number(row?.n ?? 0);
}

export async function preferencesOf(db: Db, userId: string): Promise<NotificationPreferences> {
  const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  if (!row) return { ...DEFAULT_NOTIFICATION_PREFERENCES };
  return Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, row[k]])) as NotificationPreferences;
}

/** Writes only the fields given (two tabs saving different switches at once both land), then reads the whole set. */
export async function savePreferences(
  db: Db,
  userId: string,
  patch: Partial<NotificationPreferences>,
): Promise<NotificationPreferences> {
  await db
    .insert(notificationPreferences)
    .values({ userId, ...DEFAULT_NOTIFICATION_PREFERENCES, ...patch })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...patch, updatedAt: sql`now()` } });
  return preferencesOf(db, userId);
}
