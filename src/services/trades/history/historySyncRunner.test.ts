import 'fake-indexeddb/auto';
import { BehaviorSubject, Subject, firstValueFrom, filter, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { clearUserCaches, createUserCache, type UserCache } from '../../../cache/db';
import type { ServerEvent } from '../../realtime/socketLink';
import { runHistorySync, type HistorySyncEvent } from './historySyncRunner';
import { fakeTradesApi, makeTrades } from '../../../../tests/client/testTrades';

const caches: UserCache[] = [];
afterEach(async () => {
  for (const c of caches.splice(0)) {
    c.close();
    await clearUserCaches(c.userId);
  }
});

function setup(online = true) {
  const session$ = new BehaviorSubject<{ userId: string; token: string } | null>(null);
  const online$ = new BehaviorSubject(online);
  const reconnected$ = new Subject<void>();
  const events$ = new Subject<ServerEvent>();
  let history = makeTrades(150);
  const api = fakeTradesApi(() => history);
  const cache = createUserCache(`runner-${Math.random()}`);
  caches.push(cache);
  /** A runner over this setup's session, network and cache, fetching pages with `fetchPage`. */
  const runWith = (fetchPage: typeof api.fetchPage, settleMs?: number) =>
    runHistorySync({
      session$,
      online$,
      reconnected$,
      events$,
      cacheFor: () => cache,
      fetchPage,
      fetchChanges: api.fetchChanges,
      settleMs,
    });
  const sync$ = runWith(api.fetchPage, 10);
  const synced = (n: number) =>
    firstValueFrom(
      sync$.pipe(
        filter((e): e is Extract<HistorySyncEvent, { type: 'synced' }> => e.type === 'synced'),
        take(n),
        toArray(),
      ),
    );
  return {
    session$,
    online$,
    reconnected$,
    events$,
    api,
    cache,
    sync$,
    synced,
    runWith,
    setHistory: (h: typeof history) => (history = h),
  };
}

describe('runHistorySync', () => {
  it("waits for the first paint's load before its first sync, and syncs even when that load failed", async () => {
    for (const outcome of ['answered', 'failed'] as const) {
      const t = setup();
      let settle: (ok: boolean) => void = () => undefined;
      const firstPaint = new Promise<void>(
        (resolve, reject) => (settle = (ok) => (ok ? resolve() : reject(new Error('down')))),
      );
      const sync$ = runHistorySync({
        session$: t.session$,
        online$: t.online$,
        reconnected$: t.reconnected$,
        events$: t.events$,
        cacheFor: () => t.cache,
        fetchPage: t.api.fetchPage,
        fetchChanges: t.api.fetchChanges,
        firstSyncAfter: () => firstPaint,
      });
      const first = firstValueFrom(sync$);
      t.session$.next({ userId: 'u1', token: 'x' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(t.api.calls, outcome).toEqual([]);
      settle(outcome === 'answered');
      expect((await first).type, outcome).toBe('synced');
    }
  });

  it('syncs once signed in, and again after a reconnect', async () => {
    const t = setup();
    const done = t.synced(2);
    t.session$.next({ userId: 'u1', token: 'x' });
    await firstValueFrom(t.sync$.pipe(filter((e) => e.type === 'synced')));
    t.reconnected$.next();
    const [first, second] = await done;
    expect(first!.result.tradesFetched).toBe(150);
    expect(second!.result.pagesFetched).toBe(1);
    expect(await t.cache.recentTrades(1000)).toHaveLength(150);
  });

  it('does nothing offline, and syncs when the browser is back online', async () => {
    const t = setup(false);
    // Like a real network: requests made while offline fail.
    const real = t.api.fetchPage;
    const sync$ = t.runWith((p, l) => (t.online$.value ? real(p, l) : Promise.reject(new Error('offline'))));
    const first = firstValueFrom(sync$);
    t.session$.next({ userId: 'u1', token: 'x' });
    // Proving that nothing happens needs a moment in which it could have; no event marks "nothing".
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.api.calls).toEqual([]);
    t.online$.next(true);
    const event = await first;
    // The first thing that happened is a good sync: none was tried while offline.
    expect(event.type).toBe('synced');
    expect(t.api.calls.map((c) => c.page)).toEqual([1, 2]);
  });

  it('stores a live trade at once, before any sync', async () => {
    const t = setup(false);
    const sub = t.sync$.subscribe();
    t.session$.next({ userId: 'u1', token: 'x' });
    const [live] = makeTrades(1, { prefix: 'live', end: Date.UTC(2026, 10, 22) });
    t.events$.next({ name: 'new_trade', payload: live! });
    await expect.poll(async () => (await t.cache.recentTrades(1))[0]?._id).toBe(live!._id);
    sub.unsubscribe();
  });

  it('a failed sync is reported and the next trigger tries again', async () => {
    const t = setup();
    let fail = true;
    const real = t.api.fetchPage;
    t.api.fetchPage = async (page, limit) => {
      if (fail) throw new Error('Network error');
      return real(page, limit);
    };
    const sync$ = t.runWith((p, l) => t.api.fetchPage(p, l));
    const events = firstValueFrom(sync$.pipe(take(2), toArray()));
    t.session$.next({ userId: 'u1', token: 'x' });
    await firstValueFrom(sync$.pipe(filter((e) => e.type === 'failed')));
    fail = false;
    t.reconnected$.next();
    const [a, b] = await events;
    expect(a!.type).toBe('failed');
    expect(b!.type).toBe('synced');
  });
});
