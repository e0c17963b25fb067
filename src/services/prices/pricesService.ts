import {
  asyncScheduler,
  combineLatest,
  distinctUntilChanged,
  map,
  of,
  scan,
  switchMap,
  timer,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import type { PricesResponse, SnapshotResponse } from '../../../contract/api';
import { DEFAULT_MIN_SPREAD } from '../../../contract/domain';
import { SERVER_EVENTS } from '../../../contract/events';
import type { Prices, PublicUser, SymbolPrice } from '../../../contract/entities';
import { reducePrices } from '../reconcile';
import { cachedSnapshot, eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { defaultFrameScheduler, documentVisible$, perShownFrame } from '../streams/frames';
import { liveState, type Live } from '../streams/liveState';
import { sharedOrOwn } from '../snapshot/firstPaint';

export interface PricesDeps extends DomainDeps {
  /** The signed-in user: `arbitrage.profitable` is judged against their own minSpread. */
  user$: Observable<PublicUser | null>;
  /** Price renders are coalesced to this scheduler's ticks: one per animation frame in the browser. */
  frameScheduler?: SchedulerLike;
  /** Whether the page is seen (document visibility by default): while it is not, nothing is rendered. */
  visible$?: Observable<boolean>;
  /** False while the browser is offline or the realtime link is down: the prices on screen are then not live. */
  reachable$?: Observable<boolean>;
  /** Ticks the ages of held prices while they are not live (once a second); a test's virtual clock in tests. */
  clockScheduler?: SchedulerLike;
}

export interface PricesService {
  prices$: Observable<Live<Prices>>;
}

export function createPricesService(deps: PricesDeps): PricesService {
  const frames = deps.frameScheduler ?? defaultFrameScheduler();
  const minSpread$ = deps.user$.pipe(
    map((u) => (u && Number.isFinite(u.minSpread) && u.minSpread > 0 ? u.minSpread : DEFAULT_MIN_SPREAD)),
    distinctUntilChanged(),
  );

  const raw$ = replay(
    perUser(deps, idle<Prices>({}), (cache) =>
      liveState<Prices, SymbolPrice>({
        initial: {},
        cached: cachedSnapshot<Prices>(cache, 'prices'),
        snapshot: sharedOrOwn(
          deps.firstPaint,
          cache.userId,
          pricesOf,
          async () => (await deps.http.get<PricesResponse>('/exchanges/prices')).prices,
        ),
        events$: eventsOf(deps.events$, SERVER_EVENTS.priceUpdate),
        resync$: deps.reconnected$,
        fold: (state, price) => ({ ...state, [price.symbol]: price }),
        persist: (v) => void cache.writeSnapshot('prices', v),
        persistDebounceMs: 1000,
        onSnapshotError: (err) => deps.onLoadError('Failed to load prices', err),
      }),
    ),
  );

  const clock = deps.clockScheduler ?? asyncScheduler;
  // When each symbol's price arrived, on this device's clock: a held price ages from then (its age at arrival plus
  // the time since), so offline "Price age" keeps counting instead of freezing at its last value.
  const arrived$ = raw$.pipe(
    scan(
      (acc: { live: Live<Prices>; at: Partial<Record<string, number>> }, live: Live<Prices>) => {
        const at = { ...acc.at };
        const now = clock.now();
        for (const p of Object.values(live.value))
          if (p && acc.live.value[p.symbol] !== p)
            // A cached price arrived when it was saved; a live one now.
            at[p.symbol] = live.source === 'live' ? now : (live.updatedAt ?? now);
        return { live, at };
      },
      { live: idle<Prices>({}), at: {} },
    ),
  );

  // Many price ticks a second; React sees at most one merged map per animation frame, and none while the page is
  // hidden (the latest is rendered when it is shown again).
  const prices$ = replay(
    combineLatest([arrived$, minSpread$, deps.reachable$ ?? of(true)]).pipe(
      switchMap(([{ live, at }, minSpread, reachable]) => {
        const isLive = live.source === 'live' && reachable;
        const ticks$ = isLive ? of(0) : timer(0, 1000, clock);
        return ticks$.pipe(
          map(() => ({
            ...live,
            value: reducePrices(
              {},
              {
                type: 'snapshot',
                prices: isLive ? live.value : agedSince(notLiveAsStale(live.value, false), at, clock.now()),
              },
              minSpread,
            ),
          })),
        );
      }),
      perShownFrame(frames, deps.visible$ ?? documentVisible$()),
    ),
  );
  return { prices$ };
}

/** An instance without an engine has no prices (GET /exchanges/prices answers 503 there): a load failure as that is. */
export function pricesOf(snapshot: SnapshotResponse): Prices {
  if (!snapshot.prices) throw new Error('This server runs no trading engine: no prices');
  return snapshot.prices;
}

/**
 * Prices from the device's cache, or held while offline or while the live link is down, are last seen, not current:
 * marked stale, so no screen highlights them as profitable (contract/rules.ts isPriceProfitable).
 */
export function notLiveAsStale(prices: Prices, live: boolean): Prices {
  if (live) return prices;
  const out: Prices = {};
  for (const p of Object.values(prices)) if (p) out[p.symbol] = p.stale ? p : { ...p, stale: true };
  return out;
}

/**
 * Held prices aged to `now`: each venue's age at arrival plus the time since the price arrived (`arrivedAt`, this
 * device's clock), so the figure keeps counting while nothing new comes.
 */
export function agedSince(prices: Prices, arrivedAt: Partial<Record<string, number>>, now: number): Prices {
  const out: Prices = {};
  for (const p of Object.values(prices)) {
    if (!p) continue;
    const at = arrivedAt[p.symbol];
    // A price cached by an older version may carry no ages.
    const ages = p.ageMs as SymbolPrice['ageMs'] | undefined;
    if (at === undefined || !ages) {
      out[p.symbol] = p;
      continue;
    }
    const since = Math.max(0, now - at);
    const add = (a: number | null) => (a === null ? null : a + since);
    out[p.symbol] = { ...p, ageMs: { binance: add(ages.binance), deriv: add(ages.deriv) } };
  }
  return out;
}
