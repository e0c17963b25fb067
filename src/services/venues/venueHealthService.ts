import { asyncScheduler, combineLatest, map, scan, switchMap, timer, type Observable, type SchedulerLike } from 'rxjs';
import { VENUES } from '../../../contract/domain';
import { SERVER_EVENTS } from '../../../contract/events';
import type { VenueHealth } from '../../../contract/venue-health';
import { cachedSnapshot, eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { liveState, type Live } from '../streams/liveState';

// Each venue's connection as the server measures it (GET /snapshot, then `venue_health` events), cached for offline.
// What the server said is only as current as the link to it: while this device is offline or the realtime link is
// down, the reports are last known, and their ages keep counting on this device's clock (as held prices do).

export interface HeldHealth {
  health: VenueHealth;
  /** This device's clock when the report arrived (a cached one: when it was saved). */
  arrivedAt: number;
}

/** How long ago each time in a report was, on this device's clock now (ms; null where the report has none). */
export interface HealthAges {
  since: number | null;
  reported: number | null;
  latency: number | null;
  error: number | null;
}

export interface VenueHealthView {
  venues: (HeldHealth & { ages: HealthAges })[];
  /** The reports are current: from the server, with this device online and the realtime link up. */
  live: boolean;
  /** This device's clock now, re-read every second so that ages keep counting (offline too). */
  now: number;
}

export interface VenueHealthDeps extends DomainDeps {
  /** False while the browser is offline or the realtime link is down. */
  reachable$: Observable<boolean>;
  clockScheduler?: SchedulerLike;
}

const byVenue = (list: VenueHealth[]): VenueHealth[] =>
  VENUES.flatMap((venue) => list.filter((h) => h.venue === venue).slice(0, 1));

/**
 * How long ago `at` (a server time in the report) was, counted without trusting this device's clock to agree with the
 * server's: the report's own age at `reportedAt`, plus the time since it arrived here.
 */
export function ageOf(held: HeldHealth, at: string | null, now: number): number | null {
  if (!at) return null;
  const atServer = Date.parse(held.health.reportedAt) - Date.parse(at);
  if (!Number.isFinite(atServer)) return null;
  return Math.max(0, atServer) + Math.max(0, now - held.arrivedAt);
}

export function createVenueHealthService(deps: VenueHealthDeps): { health$: Observable<VenueHealthView> } {
  const clock = deps.clockScheduler ?? asyncScheduler;
  const raw$ = replay(
    perUser(deps, idle<VenueHealth[]>([]), (cache) =>
      liveState<VenueHealth[], VenueHealth>({
        initial: [],
        cached: cachedSnapshot<VenueHealth[]>(cache, 'venueHealth'),
        // An instance without an engine has no venues to report; the engine's instance sends them as events.
        snapshot: async () => byVenue((await deps.firstPaint.get(cache.userId)).venues ?? []),
        events$: eventsOf(deps.events$, SERVER_EVENTS.venueHealth),
        resync$: deps.reconnected$,
        fold: (list, health) => byVenue([health, ...list]),
        persist: (list) => void cache.writeSnapshot('venueHealth', list),
        persistDebounceMs: 1000,
      }),
    ),
  );
  // When each venue's report arrived, on this device's clock.
  const held$ = raw$.pipe(
    scan(
      (acc: { live: Live<VenueHealth[]>; held: HeldHealth[] }, live: Live<VenueHealth[]>) => {
        const now = clock.now();
        const held = live.value.map((health) => {
          const before = acc.held.find((h) => h.health === health);
          return before ?? { health, arrivedAt: live.source === 'live' ? now : (live.updatedAt ?? now) };
        });
        return { live, held };
      },
      { live: idle<VenueHealth[]>([]), held: [] },
    ),
  );
  const health$ = replay(
    combineLatest([held$, deps.reachable$]).pipe(
      switchMap(([{ live, held }, reachable]) => {
        const isLive = live.source === 'live' && reachable;
        // Ages ("measured 8 s ago") count every second, live or not.
        return timer(0, 1000, clock).pipe(
          map((): VenueHealthView => {
            const now = clock.now();
            const venues = held.map((h) => ({
              ...h,
              ages: {
                since: ageOf(h, h.health.since, now),
                reported: ageOf(h, h.health.reportedAt, now),
                latency: ageOf(h, h.health.latencyAt, now),
                error: ageOf(h, h.health.lastError?.at ?? null, now),
              },
            }));
            return { venues, live: isLive, now };
          }),
        );
      }),
    ),
  );
  return { health$ };
}
