import { auditTime, defer, ignoreElements, map, merge, scan, share, startWith, tap, type Observable } from 'rxjs';
import type { OpportunityOutcome } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import type { Live } from '../streams/liveState';
import { foldOutcome, OUTCOMES_KEEP } from './outcomeList';

// What the engine did with each opportunity for the signed-in user (opportunity_outcome): taken, or skipped and why.
// The server keeps no list of them, so the client keeps the recent ones, cached in IndexedDB for offline reading.

export interface OutcomesService {
  /** Newest first: the cached list at once, then grown by each outcome the engine sends. */
  outcomes$: Observable<Live<OpportunityOutcome[]>>;
}

type Step =
  { kind: 'cached'; list: OpportunityOutcome[]; savedAt: number } | { kind: 'event'; outcome: OpportunityOutcome };

export function createOutcomesService(deps: DomainDeps & { persistEveryMs?: number }): OutcomesService {
  const outcomes$ = replay(
    perUser(deps, idle<OpportunityOutcome[]>([]), (cache) => {
      // Events are listened to from the start: one arriving while the cache is read is kept, and the cached (older)
      // list goes after it.
      const steps$ = merge(
        defer(async (): Promise<Step> => {
          const rec = await cache.readSnapshot<OpportunityOutcome[]>('outcomes');
          return { kind: 'cached', list: rec?.data ?? [], savedAt: rec?.savedAt ?? 0 };
        }),
        eventsOf(deps.events$, SERVER_EVENTS.opportunityOutcome).pipe(
          map((outcome): Step => ({ kind: 'event', outcome })),
        ),
      );
      const state$ = steps$.pipe(
        scan((s: Live<OpportunityOutcome[]>, step: Step): Live<OpportunityOutcome[]> => {
          if (step.kind === 'event')
            return {
              value: foldOutcome(s.value, step.outcome),
              loading: false,
              source: 'live',
              updatedAt: Date.now(),
              error: null,
            };
          const list = [...s.value, ...step.list].slice(0, OUTCOMES_KEEP);
          return s.source === 'live'
            ? { ...s, value: list }
            : {
                value: list,
                loading: false,
                source: step.savedAt ? 'cache' : 'initial',
                updatedAt: step.savedAt || null,
                error: null,
              };
        }, idle<OpportunityOutcome[]>([])),
        startWith(idle<OpportunityOutcome[]>([])),
        share(),
      );
      const persisted$ = state$.pipe(
        // Once per window at most, whatever the rate of outcomes.
        auditTime(deps.persistEveryMs ?? 1000),
        tap((s) => {
          if (s.source === 'live') void cache.writeSnapshot('outcomes', s.value);
        }),
        ignoreElements(),
      );
      return merge(state$, persisted$);
    }),
  );
  return { outcomes$ };
}
