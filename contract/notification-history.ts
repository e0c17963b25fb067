// The notifications history: every notification the server sent a user (the same PushMessage that goes to their
// devices and linked Telegram chat), kept per user with its read state, newest first. No runtime dependencies besides
// zod.
import type { NotificationKind } from './notifications';
import { text } from './text';
import { z } from './zod';

/** Notifications kept per user: a new one beyond this lets the oldest go. */
export const NOTIFICATION_HISTORY_LIMIT = 500;
/** Most notifications one answer of GET /notifications carries, and how many it carries when not told. */
export const MAX_NOTIFICATIONS_PAGE = 100;
export const DEFAULT_NOTIFICATIONS_PAGE = 50;
/** Most ids one mark-read call takes. */
export const MAX_MARK_READ = MAX_NOTIFICATIONS_PAGE;

/** One notification as the user was sent it: its words, where a click leads, when, and whether they have read it. */
export interface SentNotification {
  _id: string;
  kind: NotificationKind | 'test';
  title: string;
  body: string;
  /** Same-origin path of the screen it opens. */
  url: string;
  /** ISO time it was sent. */
  sentAt: string;
  /** ISO time the user read it; null while unread. */
  readAt: string | null;
}

/** A page's position: opaque to the client, it sends back what the last answer gave as `nextCursor`. */
const CURSOR = /^[1-9][0-9]{0,17}$/;

export const NotificationsQuery = z.object({
  cursor: text('cursor').regex(CURSOR, 'cursor must be a cursor from an earlier answer').optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MAX_NOTIFICATIONS_PAGE, `limit must be at most ${MAX_NOTIFICATIONS_PAGE}`)
    .default(DEFAULT_NOTIFICATIONS_PAGE),
});
export type NotificationsQuery = z.input<typeof NotificationsQuery>;

export const MarkNotificationsReadBody = z.object({
  ids: z
    .array(text('ids').uuid('ids must be notification ids'), { message: 'ids must be a list of notification ids' })
    .min(1, 'Send at least one notification id')
    .max(MAX_MARK_READ, `Send at most ${MAX_MARK_READ} ids at once`),
});
export type MarkNotificationsReadBody = z.infer<typeof MarkNotificationsReadBody>;

export interface NotificationsResponse {
  success: true;
  /** Newest first. */
  notifications: SentNotification[];
  /** Unread notifications of the caller's in all (not only on this page). */
  unread: number;
  /** Where the next (older) page starts; null when this page reaches the oldest. */
  nextCursor: string | null;
}

export interface NotificationsReadResponse {
  success: true;
  /** How many were unread and are now read. */
  marked: number;
  unread: number;
}

/** The realtime event of a notification just sent: the client adds it on top of its list, live. */
export type NotificationSentEvent = SentNotification;
