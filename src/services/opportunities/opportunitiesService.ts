import type { Observable } from 'rxjs';
import type { ArbitrageOpportunity } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { reduceOpportunities } from '../reconcile';
import { cachedSnapshot, eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { liveState, type Live } from '../streams/liveState';

export interface OpportunitiesService {
  opportunities$: Observable<Live<ArbitrageOpportunity[]>>;
}

export function createOpportunitiesService(deps: DomainDeps): OpportunitiesService {
  const opportunities$ = replay(
    perUser(deps, idle<ArbitrageOpportunity[]>([]), (cache) =>
      liveState<ArbitrageOpportunity[], ArbitrageOpportunity>({
        initial: [],
        cached: cachedSnapshot<ArbitrageOpportunity[]>(cache, 'opportunities'),
        // The server keeps no list of opportunities: the stream is live from the first-paint snapshot on, and grows
        // with each `arbitrage_opportunity` event.
        snapshot: async () => {
          await deps.firstPaint.get(cache.userId);
          return [];
        },
        events$: eventsOf(deps.events$, SERVER_EVENTS.arbitrageOpportunity),
        resync$: deps.reconnected$,
        fold: (state, o) => reduceOpportunities(state, o),
        persist: (v) => void cache.writeSnapshot('opportunities', v),
      }),
    ),
  );
  return { opportunities$ };
}
