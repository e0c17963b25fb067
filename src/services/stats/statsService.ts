import type { Observable } from 'rxjs';
import type { StatsResponse } from '../../../contract/api';
import type { Stats } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { reduceStats } from '../reconcile';
import { cachedSnapshot, eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { liveState, type Live } from '../streams/liveState';
import { resyncs, sharedOrOwn } from '../snapshot/firstPaint';

export interface StatsDeps extends DomainDeps {
  /** The portfolio half of the stats comes from the balances: reload both together. */
  reloads$: Observable<void>;
}

export interface StatsService {
  stats$: Observable<Live<Stats | null>>;
}

export function createStatsService(deps: StatsDeps): StatsService {
  const { http } = deps;
  const stats$ = replay(
    perUser(deps, idle<Stats | null>(null), (cache) =>
      liveState<Stats | null, Partial<Stats>>({
        initial: null,
        cached: cachedSnapshot<Stats>(cache, 'stats'),
        // The shared snapshot carries both halves; a reload makes both stats calls together (spec section 4).
        snapshot: sharedOrOwn(
          deps.firstPaint,
          cache.userId,
          (s) => s.stats,
          async () => {
            const [summary, portfolio] = await Promise.all([
              http.get<StatsResponse>('/trades/stats/summary'),
              http.get<StatsResponse>('/balances/stats/portfolio'),
            ]);
            return { ...portfolio.stats, ...summary.stats, totalValue: portfolio.stats.totalValue };
          },
        ),
        events$: eventsOf(deps.events$, SERVER_EVENTS.statsUpdated),
        resync$: resyncs(deps.reconnected$, deps.reloads$),
        fold: (state, delta) => reduceStats(state, { type: 'delta', value: delta }),
        persist: (v) => void (v && cache.writeSnapshot('stats', v)),
        onSnapshotError: (err) => deps.onLoadError('Failed to load statistics', err),
      }),
    ),
  );
  return { stats$ };
}
