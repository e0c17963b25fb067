import {
  catchError,
  concat,
  debounceTime,
  defer,
  distinctUntilChanged,
  EMPTY,
  exhaustMap,
  filter,
  from,
  ignoreElements,
  map,
  merge,
  mergeMap,
  of,
  share,
  startWith,
  switchMap,
  noop,
  withLatestFrom,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import type { Pagination, Trade } from '../../../../contract/entities';
import { SERVER_EVENTS } from '../../../../contract/events';
import type { UserCache } from '../../../cache/db';
import type { ServerEvent } from '../../realtime/socketLink';
import { eventsOf } from '../../streams/domainDeps';
import { tradeWriterFor } from '../tradeWriter';
import { syncTradeHistory, type HistorySyncDeps, type HistorySyncResult } from './historySync';

export interface HistorySyncRunnerDeps {
  session$: Observable<{ userId: string; token: string } | null>;
  online$: Observable<boolean>;
  /** Every reconnection of the socket: trades may have been missed in the gap. */
  reconnected$: Observable<void>;
  events$: Observable<ServerEvent>;
  cacheFor: (userId: string) => UserCache;
  fetchPage: (page: number, limit: number) => Promise<{ trades: Trade[]; pagination: Pagination }>;
  fetchChanges: HistorySyncDeps['fetchChanges'];
  /** The first sync of a session starts once this settles (either way): the first paint's load goes first. */
  firstSyncAfter?: (userId: string) => Promise<unknown>;
  /** Quiet time after live trade events before the next incremental sync. */
  settleMs?: number;
  scheduler?: SchedulerLike;
}

export type HistorySyncEvent = { type: 'synced'; result: HistorySyncResult } | { type: 'failed'; error: unknown };

/**
 * Keeps the signed-in user's trade history in IndexedDB while online: a sync at sign-in, after every reconnect, when
 * the browser comes back online, and after live trade events settle; live trades are stored at once as well, so the
 * copy is current the moment the network goes. One sync at a time (exhaustMap); nothing runs offline or signed out.
 */
export function runHistorySync(deps: HistorySyncRunnerDeps): Observable<HistorySyncEvent> {
  const online$ = deps.online$.pipe(distinctUntilChanged());
  const tradeEvents$ = merge(
    eventsOf(deps.events$, SERVER_EVENTS.newTrade),
    eventsOf(deps.events$, SERVER_EVENTS.tradeUpdated),
  ).pipe(share());

  return deps.session$.pipe(
    map((s) => s?.userId ?? null),
    distinctUntilChanged(),
    switchMap((userId) => {
      if (!userId) return EMPTY;
      const cache = deps.cacheFor(userId);
      const storeLive$ = tradeEvents$.pipe(
        mergeMap((trade) => from(tradeWriterFor(cache).write([trade]))),
        mergeMap(() => EMPTY as Observable<HistorySyncEvent>),
      );
      const triggers$ = merge(
        online$.pipe(filter(Boolean)),
        deps.reconnected$,
        tradeEvents$.pipe(debounceTime(deps.settleMs ?? 3000, deps.scheduler)),
      ).pipe(startWith(undefined));
      const after = deps.firstSyncAfter;
      const firstPaint$ = after ? defer(() => after(userId).then(noop, noop)).pipe(ignoreElements()) : EMPTY;
      const syncs$ = concat(firstPaint$, triggers$).pipe(
        withLatestFrom(online$),
        filter(([, online]) => online),
        exhaustMap(() =>
          from(syncTradeHistory({ cache, fetchPage: deps.fetchPage, fetchChanges: deps.fetchChanges })).pipe(
            map((result): HistorySyncEvent => ({ type: 'synced', result })),
            catchError((error: unknown) => of<HistorySyncEvent>({ type: 'failed', error })),
          ),
        ),
      );
      return merge(storeLive$, syncs$);
    }),
    share(),
  );
}
