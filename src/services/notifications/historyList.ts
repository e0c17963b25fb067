import {
  NOTIFICATION_HISTORY_LIMIT,
  type NotificationsResponse,
  type SentNotification,
} from '../../../contract/notification-history';

// The notifications history as the app holds it: newest first, the unread count the server gave (kept in step with
// what this device marks and hears), and where the next older page starts. Pure: the service folds steps into it.

export interface NotificationHistory {
  items: SentNotification[];
  unread: number;
  /** null when the list reaches the oldest the server keeps. */
  nextCursor: string | null;
}

export const EMPTY_HISTORY: NotificationHistory = { items: [], unread: 0, nextCursor: null };

export type HistoryStep =
  /** A notification just sent (the realtime event). */
  | { kind: 'sent'; notification: SentNotification }
  /** An older page, asked for by the screen. */
  | { kind: 'older'; page: NotificationsResponse }
  /** The server's answer to marking read: these ids are read now, `unread` remain. */
  | { kind: 'read'; ids: readonly string[] | 'all'; unread: number; at: string };

/** The newest page from the server replaces what the device had. */
export const historyOf = (page: NotificationsResponse): NotificationHistory => ({
  items: page.notifications,
  unread: page.unread,
  nextCursor: page.nextCursor,
});

export function foldHistory(state: NotificationHistory, step: HistoryStep): NotificationHistory {
  switch (step.kind) {
    case 'sent':
      // The same notification heard twice (a resync's page already held it) counts once.
      if (state.items.some((n) => n._id === step.notification._id)) return state;
      return {
        ...state,
        // The server keeps the newest NOTIFICATION_HISTORY_LIMIT; so does the device (its copy is what shows offline).
        items: [step.notification, ...state.items].slice(0, NOTIFICATION_HISTORY_LIMIT),
        unread: state.unread + (step.notification.readAt === null ? 1 : 0),
      };
    case 'older': {
      const known = new Set(state.items.map((n) => n._id));
      return {
        items: [...state.items, ...step.page.notifications.filter((n) => !known.has(n._id))],
        unread: step.page.unread,
        nextCursor: step.page.nextCursor,
      };
    }
    case 'read': {
      const ids = step.ids === 'all' ? null : new Set(step.ids);
      return {
        ...state,
        items: state.items.map((n) =>
          n.readAt === null && (ids === null || ids.has(n._id)) ? { ...n, readAt: step.at } : n,
        ),
        unread: step.unread,
      };
    }
  }
}
