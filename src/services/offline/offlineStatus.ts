import { combineLatest, distinctUntilChanged, map, merge, scan, shareReplay, startWith, type Observable } from 'rxjs';
import type { ConnectionState } from '../realtime/realtimeService';

export interface OfflineStatus {
  /** True while the app cannot show live data: the browser is offline or the realtime link is down. */
  offline: boolean;
  /** Epoch ms of the newest data the screens hold (when it was last seen live), null when nothing is held. */
  dataFrom: number | null;
}

export interface OfflineStatusDeps {
  online$: Observable<boolean>;
  connection$: Observable<ConnectionState>;
  /** The `updatedAt` of each domain stream (Live<T>.updatedAt). */
  updatedAt$: Observable<number | null>[];
}

const LINK_DOWN: readonly ConnectionState[] = ['retrying', 'gave-up'];

/** Offline or not, and how old the data on screen is: what the banner says. */
export function offlineStatus(deps: OfflineStatusDeps): Observable<OfflineStatus> {
  const dataFrom$ = merge(...deps.updatedAt$).pipe(
    scan(
      (newest: number | null, at: number | null) => (at !== null && (newest === null || at > newest) ? at : newest),
      null,
    ),
    startWith(null),
    distinctUntilChanged(),
  );
  const offline$ = combineLatest([deps.online$, deps.connection$.pipe(startWith<ConnectionState>('idle'))]).pipe(
    map(([online, link]) => !online || LINK_DOWN.includes(link)),
    distinctUntilChanged(),
  );
  return combineLatest([offline$, dataFrom$]).pipe(
    map(([offline, dataFrom]) => ({ offline, dataFrom })),
    distinctUntilChanged((a, b) => a.offline === b.offline && a.dataFrom === b.dataFrom),
    shareReplay({ bufferSize: 1, refCount: true }),
  );
}
