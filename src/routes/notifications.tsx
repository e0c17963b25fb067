import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from 'react-toastify';
import type { SentNotification } from '../../contract/notification-history';
import * as styles from '../features/notifications/notifications.css';
import { needsServerText } from '../features/offline/offlineText';
import { useNotificationHistory, useOfflineStatus } from '../hooks/data';
import { messageOf } from '../services/http';
import { useServices } from '../hooks/services';
import { useTimeZone } from '../hooks/timeZone';
import { formatRelative, formatTradeDate } from '../lib/format';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import * as page from '../ui/page.css';
import { Spinner } from '../ui/Spinner';
import * as ui from '../ui/ui.css';

/** The notifications history: what the user was sent (push, Telegram, here), when, what it said, read or not. */
export function NotificationsScreen() {
  const { notificationHistory } = useServices();
  const live = useNotificationHistory();
  const timeZone = useTimeZone();
  const { offline } = useOfflineStatus();
  const [busy, setBusy] = useState(false);
  const { items, unread, nextCursor } = live.value;

  async function run(what: () => Promise<void>, failure: string) {
    setBusy(true);
    try {
      await what();
    } catch (err) {
      toast.error(messageOf(err, failure));
    } finally {
      setBusy(false);
    }
  }
  // Opening a notification's screen reads it; offline it stays unread until the server can be told.
  const open = (n: SentNotification) => {
    if (n.readAt === null && !offline) void notificationHistory.markRead([n._id]).catch(() => undefined);
  };

  if (items.length === 0 && live.loading) return <Spinner label="Loading notifications..." />;
  return (
    <div className={page.stack}>
      <Card
        title="Notifications"
        aria-label="Notifications history"
        action={
          <div className={styles.headerActions}>
            <span className={styles.unreadCount} data-testid="unread-count">
              {unread === 0 ? 'All read' : `${unread} unread`}
            </span>
            {unread > 0 && (
              <Button
                small
                variant="secondary"
                disabled={busy || offline}
                title={offline ? needsServerText('Marking notifications read') : undefined}
                onClick={() => void run(() => notificationHistory.markAllRead(), 'Failed to mark notifications read')}
              >
                Mark all as read
              </Button>
            )}
          </div>
        }
      >
        {items.length === 0 ? (
          <div className={ui.empty}>
            <div className={ui.emptyTitle}>No notifications yet</div>
            Trade results, pauses and halts you are sent appear here.
          </div>
        ) : (
          <ul className={styles.list} data-testid="notification-list">
            {items.map((n) => (
              <li key={n._id} className={styles.item} data-unread={n.readAt === null}>
                <span className={n.readAt === null ? styles.dot : styles.readDot} aria-hidden="true" />
                <div style={{ minWidth: 0 }}>
                  <Link
                    to={n.url}
                    className={n.readAt === null ? styles.unreadTitle : styles.title}
                    onClick={() => open(n)}
                  >
                    {n.title}
                  </Link>
                  <div className={styles.body}>{n.body}</div>
                  <div className={styles.meta}>
                    <time dateTime={n.sentAt} title={formatRelative(n.sentAt)}>
                      {formatTradeDate(n.sentAt, timeZone)}
                    </time>
                    {n.readAt === null ? ' · Unread' : ''}
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
        {nextCursor !== null && (
          <div className={styles.footer}>
            <Button
              small
              variant="secondary"
              disabled={busy || offline}
              title={offline ? needsServerText('Loading older notifications') : undefined}
              onClick={() => void run(() => notificationHistory.loadOlder(nextCursor), 'Failed to load notifications')}
            >
              Show older
            </Button>
          </div>
        )}
      </Card>
      {live.source === 'cache' && (
        <p className={page.cachedNote}>Shown from this device's copy; it updates when the server can be reached.</p>
      )}
    </div>
  );
}
