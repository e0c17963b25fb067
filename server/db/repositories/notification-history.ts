// The notifications history: what each user was sent, newest first, with its read state; at most
// NOTIFICATION_HISTORY_LIMIT a user (the oldest go as new ones come).
import { and, count, desc, eq, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { PushMessage } from '../../../contract/notifications';
import { NOTIFICATION_HISTORY_LIMIT, type SentNotification } from '../../../contract/notification-history';
import type { Db } from '../client';
import { notificationHistory, type NotificationHistoryRow } from '../schema/notification-history';
import { users } from '../schema/users';

export const sentNotificationOf = (row: NotificationHistoryRow): SentNotification => ({
  _id: row.id,
  kind: row.kind as SentNotification['kind'],
  title: row.title,
  body: row.body,
  url: row.url,
  sentAt: row.sentAt.toISOString(),
  readAt: row.readAt?.toISOString() ?? null,
});

/**
 * Writes down that the user was sent `message`, and lets the user's oldest go beyond the limit. No lock: two
 * notifications of one user written at the same instant may leave one row over the limit until the next, which is
 * harmless, while a lock on the user's row would make the engine's next trade of that user wait for it.
 */
export async function recordNotification(
  db: Db,
  userId: string,
  message: PushMessage,
  keep = NOTIFICATION_HISTORY_LIMIT,
): Promise<SentNotification> {
  const [row] = await db
    .insert(notificationHistory)
    .values({
      userId,
      kind: message.kind,
      title: message.title,
      body: message.body,
      url: message.url,
      sentAt: new Date(message.at),
    })
    .returning();
  const newest = db
    .select({ id: notificationHistory.id })
    .from(notificationHistory)
    .where(eq(notificationHistory.userId, userId))
    .orderBy(desc(notificationHistory.seq))
    .limit(keep);
  await db
    .delete(notificationHistory)
    .where(and(eq(notificationHistory.userId, userId), notInArray(notificationHistory.id, newest)));
  if (!row) throw new Error('notification history: the insert returned no row');
  return sentNotificationOf(row);
}

/** A page of the user's notifications, newest first, older than the cursor (a `seq`) when one is given. */
export async function listNotifications(
  db: Db,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<{ notifications: SentNotification[]; nextCursor: string | null }> {
  const rows = await db
    .select()
    .from(notificationHistory)
    .where(
      and(
        eq(notificationHistory.userId, userId),
        page.cursor === undefined ? undefined : lt(notificationHistory.seq, Number(page.cursor)),
      ),
    )
    .orderBy(desc(notificationHistory.seq))
    // One more than asked says whether an older page exists.
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    notifications: shown.map(sentNotificationOf),
    nextCursor: rows.length > page.limit && last ? String(last.seq) : null,
  };
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notificationHistory)
    .where(and(eq(notificationHistory.userId, userId), isNull(notificationHistory.readAt)));
  return row?.n ?? 0;
}

/** Marks the user's notifications read (all of them without `ids`); another user's ids change nothing. */
export async function markRead(db: Db, userId: string, ids?: readonly string[]): Promise<number> {
  const marked = await db
    .update(notificationHistory)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notificationHistory.userId, userId),
        isNull(notificationHistory.readAt),
        ids ? inArray(notificationHistory.id, [...ids]) : undefined,
      ),
    )
    .returning({ id: notificationHistory.id });
  return marked.length;
}

/** Everyone a notification to all is written down for: the active accounts. */
export async function activeUserIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.isActive, true));
  return rows.map((r) => r.id);
}
