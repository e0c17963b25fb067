import { map, merge, Subject, type Observable } from 'rxjs';
import {
  DEFAULT_NOTIFICATIONS_PAGE,
  type NotificationsReadResponse,
  type NotificationsResponse,
} from '../../../contract/notification-history';
import { SERVER_EVENTS } from '../../../contract/events';
import { cachedSnapshot, eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { liveState, type Live } from '../streams/liveState';
import { EMPTY_HISTORY, foldHistory, historyOf, type HistoryStep, type NotificationHistory } from './historyList';

// The notifications the user was sent (GET /notifications), as every domain stream is built: the copy in IndexedDB
// first (so the list and the unread count read offline), then the server's newest page (again after each reconnect),
// then each notification the server sends as it is sent (the 'notification' event). Older pages and read marks are
// asked for by the screen and folded in the same way.

export interface NotificationHistoryService {
  history$: Observable<Live<NotificationHistory>>;
  /** Appends the page older than the oldest held. */
  loadOlder(cursor: string): Promise<void>;
  /** Marks these read on the server (every device of the user), then here. */
  markRead(ids: readonly string[]): Promise<void>;
  markAllRead(): Promise<void>;
}

export function createNotificationHistoryService(deps: DomainDeps): NotificationHistoryService {
  const steps$ = new Subject<HistoryStep>();
  const history$ = replay(
    perUser(deps, idle<NotificationHistory>(EMPTY_HISTORY), (cache) =>
      liveState<NotificationHistory, HistoryStep>({
        initial: EMPTY_HISTORY,
        cached: cachedSnapshot<NotificationHistory>(cache, 'notifications'),
        snapshot: async () =>
          historyOf(
            await deps.http.get<NotificationsResponse>('/notifications', { limit: DEFAULT_NOTIFICATIONS_PAGE }),
          ),
        events$: merge(
          eventsOf(deps.events$, SERVER_EVENTS.notification).pipe(
            map((notification): HistoryStep => ({ kind: 'sent', notification })),
          ),
          steps$,
        ),
        resync$: deps.reconnected$,
        fold: foldHistory,
        persist: (value) => void cache.writeSnapshot('notifications', value),
        // No load-failure toast: the list says it shows the copy on this device, and the badge needs none.
      }),
    ),
  );
  const at = () => new Date().toISOString();
  return {
    history$,
    async loadOlder(cursor) {
      const page = await deps.http.get<NotificationsResponse>('/notifications', {
        cursor,
        limit: DEFAULT_NOTIFICATIONS_PAGE,
      });
      steps$.next({ kind: 'older', page });
    },
    async markRead(ids) {
      if (ids.length === 0) return;
      const r = await deps.http.post<NotificationsReadResponse>('/notifications/read', { ids });
      steps$.next({ kind: 'read', ids, unread: r.unread, at: at() });
    },
    async markAllRead() {
      const r = await deps.http.post<NotificationsReadResponse>('/notifications/read-all');
      steps$.next({ kind: 'read', ids: 'all', unread: r.unread, at: at() });
    },
  };
}
