import {
  BehaviorSubject,
  bufferTime,
  catchError,
  concatMap,
  defer,
  filter,
  from,
  map,
  merge,
  mergeMap,
  of,
  scan,
  share,
  startWith,
  using,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import type { SpreadsResponse } from '../../../contract/api';
import type { SymbolId } from '../../../contract/domain';
import type { SpreadPoint } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { nextSpreadSample, type SpreadSample } from '../../../contract/spreads';
import type { UserCache } from '../../cache/db';
import { CACHED_SPREADS_KEEP_MS } from '../../cache/schema';
import { eventsOf, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { mergeSpreadPoints } from './spreadSeries';

// The spread history of the last day per symbol, kept in IndexedDB so charts have it offline: filled from
// GET /exchanges/spreads for the pairs a chart draws, when it starts drawing one and after every reconnect meanwhile
// (from where the cache ends), and grown by the live priceUpdates, sampled at one a second as the server records them.
// Screens without a chart fetch none, and a chart of one pair fetches that pair's only (a day of one pair is about
// 70 KB compressed; with a dozen pairs, every reconnect would otherwise fetch a dozen days).

export interface SpreadsDeps extends DomainDeps {
  /** Live samples are written to the cache in batches this often. */
  writeEveryMs?: number;
  now?: () => number;
  scheduler?: SchedulerLike;
}

export interface SpreadsService {
  /** Keeps the cache filled while subscribed (a chart's history$ subscribes it); emits each batch it wrote. */
  sync$: Observable<SpreadSample[]>;
  /** A symbol's last day, oldest first: the cached points at once (offline too), then as the cache grows. */
  history$(symbol: SymbolId): Observable<SpreadPoint[]>;
}

export function createSpreadsService(deps: SpreadsDeps): SpreadsService {
  const now = deps.now ?? Date.now;
  const windowStart = () => now() - CACHED_SPREADS_KEEP_MS;

  /** The server's history from where the cache ends (or a day back) up to now; nothing when it cannot be reached. */
  const fill = (cache: UserCache, symbol: SymbolId): Observable<SpreadSample[]> =>
    defer(async () => {
      const last = await cache.lastSpreadAt(symbol);
      const fromMs = Math.max(windowStart(), last === null ? 0 : last + 1000);
      const toMs = now();
      if (fromMs >= toMs) return [];
      const query = { symbol, from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() };
      const { series } = await deps.http.get<SpreadsResponse>('/exchanges/spreads', query);
      return series.points.map((p) => ({ ...p, symbol }));
    }).pipe(catchError(() => of([])));

  /** How many histories of each pair are subscribed (the charts drawing it), and the set of pairs charted. */
  const chartCounts = new Map<SymbolId, number>();
  const charted$ = new BehaviorSubject<ReadonlySet<SymbolId>>(new Set());
  const chart = (symbol: SymbolId): (() => void) => {
    const n = chartCounts.get(symbol) ?? 0;
    chartCounts.set(symbol, n + 1);
    if (n === 0) charted$.next(new Set(chartCounts.keys()));
    return () => {
      const left = (chartCounts.get(symbol) ?? 1) - 1;
      if (left > 0) return void chartCounts.set(symbol, left);
      chartCounts.delete(symbol);
      charted$.next(new Set(chartCounts.keys()));
    };
  };

  // Every charted pair after a reconnect; each pair as it comes to be charted (all of them at the start).
  const snapshots = (cache: UserCache): Observable<SpreadSample[]> =>
    merge(
      deps.reconnected$.pipe(map(() => [...charted$.value])),
      charted$.pipe(
        scan(
          (acc: { seen: ReadonlySet<SymbolId>; added: SymbolId[] }, now: ReadonlySet<SymbolId>) => ({
            seen: now,
            added: [...now].filter((s) => !acc.seen.has(s)),
          }),
          { seen: new Set<SymbolId>(), added: [] as SymbolId[] },
        ),
        map((a) => a.added),
      ),
    ).pipe(
      filter((pairs) => pairs.length > 0),
      mergeMap((pairs) => merge(...pairs.map((symbol) => fill(cache, symbol)))),
    );

  const live$: Observable<SpreadSample[]> = defer(() => {
    const open = new Map<SymbolId, SpreadSample>();
    return eventsOf(deps.events$, SERVER_EVENTS.priceUpdate).pipe(
      map((price) => nextSpreadSample(open, price)),
      filter((s): s is SpreadSample => s !== null),
      bufferTime(deps.writeEveryMs ?? 5000, deps.scheduler),
    );
  });

  const sync$ = perUser(deps, [] as SpreadSample[], (cache) =>
    merge(snapshots(cache), live$).pipe(
      filter((batch) => batch.length > 0),
      // One write at a time, in the order the batches came.
      concatMap((batch) => from(cache.putSpreads(batch, now())).pipe(map(() => batch))),
    ),
  ).pipe(share());

  const history$ = (symbol: SymbolId): Observable<SpreadPoint[]> =>
    replay(
      perUser(deps, [] as SpreadPoint[], (cache) =>
        using(
          () => ({ unsubscribe: chart(symbol) }),
          () =>
            merge(
              defer(() => cache.readSpreads(symbol, windowStart())),
              sync$.pipe(
                map((batch) => batch.filter((s) => s.symbol === symbol).map(({ symbol: _symbol, ...point }) => point)),
              ),
            ),
        ).pipe(
          filter((points) => points.length > 0),
          scan((series: SpreadPoint[], points: SpreadPoint[]) => mergeSpreadPoints(series, points, windowStart()), []),
          startWith([] as SpreadPoint[]),
        ),
      ),
    );

  return { sync$, history$ };
}
