import { map, type Observable } from 'rxjs';
import type { TradesResponse } from '../../../contract/api';
import type { UserCache } from '../../cache/db';
import type { Live } from '../streams/liveState';
import type { Http } from '../http';
import type { ConnectionState } from '../realtime/realtimeService';
import type { ServerEvent } from '../realtime/socketLink';
import { runHistorySync, type HistorySyncEvent } from './historySyncRunner';
import { HISTORY_PAGE } from './historySync';
import { networkStatus } from './network';
import { offlineStatus, type OfflineStatus } from './offlineStatus';

export interface OfflineDeps {
  http: Http;
  session$: Observable<{ userId: string; token: string } | null>;
  connection$: Observable<ConnectionState>;
  events$: Observable<ServerEvent>;
  reconnected$: Observable<void>;
  cacheFor: (userId: string) => UserCache;
  /** The domain streams whose age the banner reports (prices, balances, stats, trades). */
  streams: Observable<Live<unknown>>[];
  online$?: Observable<boolean>;
}

export interface OfflineServices {
  online$: Observable<boolean>;
  /** For the banner: offline or not, and the time of the data shown. */
  status$: Observable<OfflineStatus>;
  /** Subscribe once (composition root) to keep the local trade history in step while online. */
  historySync$: Observable<HistorySyncEvent>;
}

export function createOfflineServices(deps: OfflineDeps): OfflineServices {
  const online$ = deps.online$ ?? networkStatus();
  const status$ = offlineStatus({
    online$,
    connection$: deps.connection$,
    updatedAt$: deps.streams.map((s) => s.pipe(map((live) => live.updatedAt))),
  });
  const historySync$ = runHistorySync({
    session$: deps.session$,
    online$,
    reconnected$: deps.reconnected$,
    events$: deps.events$,
    cacheFor: deps.cacheFor,
    fetchPage: async (page, limit) => {
      const r = await deps.http.get<TradesResponse>('/trades', { page, limit: Math.min(limit, HISTORY_PAGE) });
      return { trades: r.trades, pagination: r.pagination };
    },
  });
  return { online$, status$, historySync$ };
}

export { cachedTradePage, localCoverage } from './offlineTradePage';
export { refuseWhenOffline, OfflineRefusal, OFFLINE_REFUSAL } from './refuseOffline';
export type { OfflineStatus } from './offlineStatus';
export type { LocalCoverage } from './localTrades';
