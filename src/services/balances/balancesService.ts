import { Subject, type Observable } from 'rxjs';
import type { BalancesResponse } from '../../../contract/api';
import type { Balances } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { reduceBalances } from '../reconcile';
import { cachedSnapshot, eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { liveState, type Live } from '../streams/liveState';
import { resyncs, sharedOrOwn } from '../snapshot/firstPaint';

export interface BalancesService {
  balances$: Observable<Live<Balances | null>>;
  /** Fetch the balances snapshot again (after a sync with the venues); the portfolio stats follow `reloads$`. */
  reload(): void;
  reloads$: Observable<void>;
}

export function createBalancesService(deps: DomainDeps): BalancesService {
  const reloads$ = new Subject<void>();
  const balances$ = replay(
    perUser(deps, idle<Balances | null>(null), (cache) =>
      liveState<Balances | null, Partial<Balances>>({
        initial: null,
        cached: cachedSnapshot<Balances>(cache, 'balances'),
        // A reload (after a sync with the venues) asks GET /balances itself.
        snapshot: sharedOrOwn(
          deps.firstPaint,
          cache.userId,
          (s) => s.balance,
          async () => (await deps.http.get<BalancesResponse>('/balances')).balance,
        ),
        events$: eventsOf(deps.events$, SERVER_EVENTS.balanceUpdated),
        resync$: resyncs(deps.reconnected$, reloads$),
        fold: (state, delta) => reduceBalances(state, { type: 'delta', value: delta }),
        persist: (v) => void (v && cache.writeSnapshot('balances', v)),
        onSnapshotError: (err) => deps.onLoadError('Failed to load balances', err),
      }),
    ),
  );
  return { balances$, reload: () => reloads$.next(), reloads$: reloads$.asObservable() };
}
