import { NEVER, type Observable } from 'rxjs';
import type { MarketInfo } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import type { TradingHaltState } from '../../../contract/guard';
import { cachedSnapshot, eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { liveState, type Live } from '../streams/liveState';

export interface MarketService {
  /** Which market the server trades on (from GET /snapshot, as GET /meta answers it), cached so the app says so offline too. */
  market$: Observable<Live<MarketInfo | null>>;
  /** The admin's global kill switch: from GET /snapshot, then every `trading_halt` event; cached for offline screens. */
  halt$: Observable<Live<TradingHaltState | null>>;
}

export function createMarketService(deps: DomainDeps): MarketService {
  const market$ = replay(
    perUser(deps, idle<MarketInfo | null>(null), (cache) =>
      liveState<MarketInfo | null, never>({
        initial: null,
        cached: cachedSnapshot<MarketInfo>(cache, 'market'),
        snapshot: async () => (await deps.firstPaint.get(cache.userId)).market,
        // It changes only with the server's configuration: read again after each reconnect, never pushed.
        events$: NEVER,
        resync$: deps.reconnected$,
        fold: (state) => state,
        persist: (value) => void cache.writeSnapshot('market', value),
      }),
    ),
  );
  const halt$ = replay(
    perUser(deps, idle<TradingHaltState | null>(null), (cache) =>
      liveState<TradingHaltState | null, TradingHaltState>({
        initial: null,
        cached: cachedSnapshot<TradingHaltState>(cache, 'halt'),
        snapshot: async () => (await deps.firstPaint.get(cache.userId)).halt,
        events$: eventsOf(deps.events$, SERVER_EVENTS.tradingHalt),
        resync$: deps.reconnected$,
        fold: (_state, halt) => halt,
        persist: (value) => void cache.writeSnapshot('halt', value),
      }),
    ),
  );
  return { market$, halt$ };
}
