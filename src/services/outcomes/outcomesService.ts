import {
  auditTime,
  catchError,
  defer,
  EMPTY,
  ignoreElements,
  map,
  merge,
  scan,
  share,
  startWith,
  switchMap,
  tap,
  type Observable,
} from 'rxjs';
import type { OpportunityOutcome } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import type { Live } from '../streams/liveState';
import { foldOutcome, mergeOutcomes } from './outcomeList';

// What the engine did with each opportunity for the signed-in user (opportunity_outcome): taken, or skipped and why.
// GET /snapshot carries the engine's newest ones (at the start and after each reconnect), so a reload paints them; the
// client keeps the recent ones too, cached in IndexedDB for offline reading.

export interface OutcomesService {
  /** Newest first: the cached list at once, then grown by each outcome the engine sends. */
  outcomes$: Observable<Live<OpportunityOutcome[]>>;
}

type Step =
  | { kind: 'cached'; list: OpportunityOutcome[]; savedAt: number }
  | { kind: 'server'; list: OpportunityOutcome[] }
  | { kind: 'event'; outcome: OpportunityOutcome };

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
        // The shared first-paint answer; a failure (offline) leaves the cached list, and the other streams report it.
        deps.reconnected$.pipe(
          startWith(undefined),
          switchMap(() =>
            defer(() => deps.firstPaint.get(cache.userId)).pipe(
              // A server from before outcomes were in the snapshot sends none.
              map((snapshot): Step => ({ kind: 'server', list: snapshot.outcomes ?? [] })),
              catchError(() => EMPTY),
            ),
          ),
        ),
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
          if (step.kind === 'server')
            return {
              value: mergeOutcomes(s.value, step.list),
              loading: false,
              source: 'live',
              updatedAt: Date.now(),
              error: null,
            };
          const list = mergeOutcomes(s.value, step.list);
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
