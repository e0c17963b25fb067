import { asyncScheduler, distinctUntilChanged, map, merge, NEVER, skip, throttleTime, type Observable } from 'rxjs';
import type { RiskResponse } from '../../../contract/api';
import type { PublicUser, RiskSummary } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { cachedSnapshot, eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { liveState, type Live } from '../streams/liveState';
import { resyncs, sharedOrOwn } from '../snapshot/firstPaint';

export interface RiskService {
  /** The engine's reading of the user's risk (GET /trades/stats/risk), read again when a trade or the engine state changes. */
  risk$: Observable<Live<RiskSummary | null>>;
}

/**
 * Changes of the user's settings that move the risk figures (limits, trading on or off, an engine pause, the stop
 * kind): not the user record's replay on subscribing, nor an edit of the name or bio, each of which would be a
 * needless second read. The stop kind counts on its own: Stop & flatten from a pause or a max-loss halt leaves trading
 * off as it was and may close nothing (so no trade event follows), and only the new kind says the strip is stale.
 */
export function riskSettingChanges(user$: Observable<PublicUser | null>): Observable<unknown> {
  return user$.pipe(
    map((u) =>
      u ? [u._id, u.maxLoss, u.maxExposure, u.tradingEnabled, u.tradingStop, u.tradingPausedAt].join('|') : null,
    ),
    distinctUntilChanged(),
    skip(1),
  );
}

export function createRiskService(
  deps: DomainDeps & { settleMs?: number; changed$?: Observable<unknown> },
): RiskService {
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
        // First from the shared snapshot; after a change that moves the figures, from GET /trades/stats/risk.
        snapshot: sharedOrOwn(
          deps.firstPaint,
          cache.userId,
          (s) => s.risk,
          async () => (await deps.http.get<RiskResponse>('/trades/stats/risk')).risk,
        ),
        events$: NEVER,
        resync$: resyncs(deps.reconnected$, changed$),
        fold: (state) => state,
        persist: (v) => void (v && cache.writeSnapshot('risk', v)),
      }),
    ),
  );
  return { risk$ };
}
