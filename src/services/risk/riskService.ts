import { asyncScheduler, merge, NEVER, throttleTime, type Observable } from 'rxjs';
import type { RiskResponse } from '../../../contract/api';
import type { RiskSummary } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { cachedSnapshot, eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { liveState, type Live } from '../streams/liveState';

export interface RiskService {
  /** The engine's reading of the user's risk (GET /trades/stats/risk), read again when a trade or the engine state changes. */
  risk$: Observable<Live<RiskSummary | null>>;
}

export function createRiskService(deps: DomainDeps & { settleMs?: number; changed$?: Observable<unknown> }): RiskService {
  // The figures come from the database: read again after anything that moves them, at most once per settle period
  // and once more at its end, so a burst of trade updates (opening, open, closing) still ends on a fresh read.
  const changed$ = merge(
    eventsOf(deps.events$, SERVER_EVENTS.newTrade),
    eventsOf(deps.events$, SERVER_EVENTS.tradeUpdated),
    eventsOf(deps.events$, SERVER_EVENTS.notice),
    deps.changed$ ?? NEVER,
  ).pipe(throttleTime(deps.settleMs ?? 500, asyncScheduler, { leading: true, trailing: true }));
  const risk$ = replay(
    perUser(deps, idle<RiskSummary | null>(null), (cache) =>
      liveState<RiskSummary | null, never>({
        initial: null,
        cached: cachedSnapshot<RiskSummary>(cache, 'risk'),
        snapshot: async () => (await deps.http.get<RiskResponse>('/trades/stats/risk')).risk,
        events$: NEVER,
        resync$: merge(deps.reconnected$, changed$),
        fold: (state) => state,
        persist: (v) => void (v && cache.writeSnapshot('risk', v)),
      }),
    ),
  );
  return { risk$ };
}
