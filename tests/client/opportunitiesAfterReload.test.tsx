// Issue 20: after a reload the Opportunities panel shows the engine's newest outcomes from GET /snapshot, not "No
// opportunities seen yet", and offline it shows them from the cache the service wrote.
import { render, screen } from '@testing-library/react';
import { BehaviorSubject, filter, firstValueFrom, Subject, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotResponse } from '../../contract/api';
import type { OpportunityOutcome } from '../../contract/entities';
import { clearUserCaches, createUserCache, type UserCache } from '../../src/cache/db';
import { Opportunities } from '../../src/features/cockpit/Opportunities';
import { ApiError, type Http } from '../../src/services/http';
import { createOutcomesService } from '../../src/services/outcomes/outcomesService';
import type { ServerEvent } from '../../src/services/realtime/socketLink';
import { createSnapshotSource } from '../../src/services/snapshot/firstPaint';
import type { Live } from '../../src/services/streams/liveState';

const outcome = (kind: OpportunityOutcome['outcome'], at: string, reason: string): OpportunityOutcome => ({
  symbol: 'ETH/USDT',
  spread: 0.006,
  direction: 'deriv-rich',
  outcome: kind,
  reason,
  tradeId: null,
  at,
});
const SERVER_OUTCOMES = [
  outcome('exposure_full', '2026-11-26T12:00:05Z', 'exposure full: 500 of 500 USDT open'),
  outcome('below_min_spread', '2026-11-26T12:00:01Z', 'below your min spread'),
];

const caches: UserCache[] = [];
const subscriptions: Subscription[] = [];
afterEach(async () => {
  subscriptions.splice(0).forEach((s) => s.unsubscribe());
  for (const c of caches.splice(0)) {
    c.close();
    await clearUserCaches(c.userId);
  }
});

function startService(userId: string, http: Http) {
  const session$ = new BehaviorSubject<{ userId: string; token: string } | null>(null);
  const reconnected$ = new Subject<void>();
  const cache = createUserCache(userId);
  caches.push(cache);
  const service = createOutcomesService({
    http,
    session$,
    events$: new Subject<ServerEvent>(),
    reconnected$,
    cacheFor: () => cache,
    firstPaint: createSnapshotSource({ http, invalidate$: reconnected$ }),
    onLoadError: () => undefined,
    persistEveryMs: 10,
  });
  subscriptions.push(service.outcomes$.subscribe());
  session$.next({ userId, token: 't' });
  const when = (ready: (s: Live<OpportunityOutcome[]>) => boolean) =>
    firstValueFrom(service.outcomes$.pipe(filter(ready)));
  return { when, cache };
}

const online = {
  get: async <T,>(path: string): Promise<T> => {
    if (path !== '/snapshot') throw new ApiError(404, 'Not found');
    return { success: true, outcomes: SERVER_OUTCOMES } as unknown as SnapshotResponse as T;
  },
} as Http;
const offline = {
  get: async () => {
    throw new ApiError(0, 'Network error: the server could not be reached');
  },
} as unknown as Http;

describe('the Opportunities panel after a reload', () => {
  it("shows the snapshot's outcomes, newest first, then the same from the cache offline", async () => {
    const first = startService('outcomes-reload', online);
    const live = await first.when((s) => s.source === 'live');
    expect(live.value).toEqual(SERVER_OUTCOMES);
    const view = render(<Opportunities outcomes={live.value} minSpread={0.005} trades={[]} />);
    const rows = screen.getAllByTestId('opportunity');
    expect(rows.map((r) => r.dataset.outcome)).toEqual(['exposure_full', 'below_min_spread']);
    expect(screen.queryByText(/No opportunities seen yet/)).toBeNull();
    expect(rows[0]?.textContent).toMatch(/Exposure full/);
    view.unmount();

    // Written to the cache; the next start, offline, reads it back.
    await first.cache.readSnapshot('outcomes').then(async function wait(rec): Promise<void> {
      if (!rec) return first.cache.readSnapshot('outcomes').then(wait);
    });
    subscriptions.splice(0).forEach((s) => s.unsubscribe());
    const second = startService('outcomes-reload', offline);
    const cached = await second.when((s) => s.source === 'cache');
    render(<Opportunities outcomes={cached.value} minSpread={0.005} trades={[]} />);
    expect(screen.getAllByTestId('opportunity').map((r) => r.dataset.outcome)).toEqual([
      'exposure_full',
      'below_min_spread',
    ]);
  });
});
