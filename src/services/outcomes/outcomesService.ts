import { debounceTime, defer, map, merge, scan, share, startWith, switchMap, tap, type Observable } from 'rxjs';
import type { OpportunityOutcome } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import type { Live } from '../streams/liveState';
import { foldOutcome } from './outcomeList';

// What the engine did with each opportunity for the signed-in user (opportunity_outcome): taken, or skipped and why.
// The server keeps no list of them, so the client keeps the recent ones, cached in IndexedDB for offline reading.

export interface OutcomesService {
  /** Newest first: the cached list at once, then grown by each outcome the engine sends. */
  outcomes$: Observable<Live<OpportunityOutcome[]>>;
}

export function createOutcomesService(deps: DomainDeps & { persistEveryMs?: number }): OutcomesService {
  const outcomes$ = replay(
    perUser(deps, idle<OpportunityOutcome[]>([]), (cache) =>
      defer(() => cache.readSnapshot<OpportunityOutcome[]>('outcomes')).pipe(
        switchMap((rec) => {
          const cached = rec?.data ?? [];
          const events$ = eventsOf(deps.events$, SERVER_EVENTS.opportunityOutcome).pipe(share());
          const list$ = events$.pipe(scan((list: OpportunityOutcome[], o: OpportunityOutcome) => foldOutcome(list, o), cached), share());
          const persisted$ = list$.pipe(
            debounceTime(deps.persistEveryMs ?? 1000),
            tap((list) => void cache.writeSnapshot('outcomes', list)),
            switchMap(() => []),
          );
          const live$ = list$.pipe(map((value): Live<OpportunityOutcome[]> => ({ value, loading: false, source: 'live', updatedAt: Date.now(), error: null })));
          const first: Live<OpportunityOutcome[]> = { value: cached, loading: false, source: rec ? 'cache' : 'initial', updatedAt: rec?.savedAt ?? null, error: null };
          return merge(live$, persisted$).pipe(startWith(first));
        }),
      ),
    ),
  );
  return { outcomes$ };
}
