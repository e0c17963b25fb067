import { Link } from '@tanstack/react-router';
import { useNotificationHistory } from '../../hooks/data';
import * as styles from './notifications.css';

/** The top bar's way to the notifications history, with the unread count (from the device's copy while offline). */
export function NotificationBell() {
  const { unread } = useNotificationHistory().value;
  const shown = unread > 99 ? '99+' : String(unread);
  return (
    <Link
      to="/notifications"
      className={styles.bell}
      aria-label={unread > 0 ? `Notifications: ${shown} unread` : 'Notifications'}
      data-testid="notification-bell"
    >
      <svg className={styles.bellIcon} viewBox="0 0 24 24" fill="none" stroke="currentColor" aria-hidden="true">
        <path
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.73 21a2 2 0 0 1-3.46 0"
        />
      </svg>
      {unread > 0 && (
        <span className={styles.bellCount} aria-hidden="true">
          {shown}
        </span>
      )}
    </Link>
  );
}
