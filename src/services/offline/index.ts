import { map, type Observable } from 'rxjs';
import type { ConnectionState } from '../realtime/realtimeService';
import type { Live } from '../streams/liveState';
import { offlineStatus, type OfflineStatus } from './offlineStatus';

export interface OfflineDeps {
  online$: Observable<boolean>;
  connection$: Observable<ConnectionState>;
  /** The domain streams whose age the banner reports (prices, balances, stats, trades). */
  streams: Observable<Live<unknown>>[];
}

export interface OfflineServices {
  online$: Observable<boolean>;
  /** For the banner: offline or not, and the time of the data shown. */
  status$: Observable<OfflineStatus>;
}

export function createOfflineServices(deps: OfflineDeps): OfflineServices {
  const status$ = offlineStatus({
    online$: deps.online$,
    connection$: deps.connection$,
    updatedAt$: deps.streams.map((s) => s.pipe(map((live) => live.updatedAt))),
  });
  return { online$: deps.online$, status$ };
}

export { networkStatus } from './network';
export { refuseWhenOffline, OfflineRefusal, OFFLINE_REFUSAL } from './refuseOffline';
export type { OfflineStatus } from './offlineStatus';
