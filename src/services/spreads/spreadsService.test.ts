import { BehaviorSubject, filter, firstValueFrom, Subject, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SpreadsResponse } from '../../../contract/api';
import type { SymbolId } from '../../../contract/domain';
import type { SpreadPoint, SymbolPrice } from '../../../contract/entities';
import { clearUserCaches, createUserCache, type UserCache } from '../../cache/db';
import { ApiError, type Http, type Query } from '../http';
import type { ServerEvent } from '../realtime/socketLink';
import { createSpreadsService } from './spreadsService';
import { createSnapshotSource } from '../snapshot/firstPaint';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 3, 1, 12);

const point = (t: number, spread: number): SpreadPoint => ({
  t,
  binance: 100,
  deriv: 100 * (1 + spread),
  spread,
  spreadLow: spread,
  spreadHigh: spread,
});
const price = (symbol: SymbolId, at: number, deriv: number): SymbolPrice => ({
  symbol,
  binance: 100,
  deriv,
  spread: (deriv - 100) / 100,
  arbitrage: { profitable: false },
  timestamp: new Date(at).toISOString(),
  stale: false,
  ageMs: { binance: 0, deriv: 0 },
});

/** The server's recorded history: a point a minute for the last two days, answered as GET /exchanges/spreads does. */
function fakeServer(clock: { now: number }) {
  const calls: Query[] = [];
  let reachable = true;
  const history = (symbol: SymbolId) =>
    Array.from({ length: 48 * 60 }, (_, i) =>
      point(T0 - 2 * DAY + i * MINUTE, (symbol === 'BTC/USDT' ? 1 : 2) / 10_000),
    );
  const http = {
    get: async <T>(path: string, query?: Query): Promise<T> => {
      if (!reachable) throw new ApiError(0, 'Network error: the server could not be reached');
      if (path !== '/exchanges/spreads' || !query) throw new ApiError(404, 'Not found');
      calls.push(query);
      const symbol = query.symbol as SymbolId;
      const [from, to] = [Date.parse(String(query.from)), Date.parse(String(query.to))];
      expect(to).toBe(clock.now);
      const points = history(symbol).filter((p) => p.t >= from && p.t < to);
      const answer: SpreadsResponse = {
        success: true,
        series: { symbol, from: String(query.from), to: String(query.to), resolutionSeconds: 60, points },
      };
      return answer as T;
    },
  } as Http;
  return { http, calls, goOffline: () => (reachable = false) };
}

const caches: UserCache[] = [];
const subscriptions: Subscription[] = [];
afterEach(async () => {
  subscriptions.splice(0).forEach((s) => s.unsubscribe());
  for (const c of caches.splice(0)) {
    c.close();
    await clearUserCaches(c.userId);
  }
});

function setup(userId: string, clock: { now: number }, http: Http) {
  const session$ = new BehaviorSubject<{ userId: string; token: string } | null>(null);
  const events$ = new Subject<ServerEvent>();
  const reconnected$ = new Subject<void>();
  const cache = createUserCache(userId);
  caches.push(cache);
  const service = createSpreadsService({
    http,
    session$,
    events$,
    reconnected$,
    cacheFor: () => cache,
    firstPaint: createSnapshotSource({ http, invalidate$: reconnected$ }),
    onLoadError: () => undefined,
    now: () => clock.now,
    writeEveryMs: 10,
  });
  const signIn = () => session$.next({ userId, token: 't' });
  const push = (p: SymbolPrice) => events$.next({ name: 'priceUpdate', payload: p });
  /** The symbol's history once it satisfies `ready`. */
  const historyWhen = (symbol: SymbolId, ready: (points: SpreadPoint[]) => boolean) =>
    firstValueFrom(service.history$(symbol).pipe(filter(ready)));
  return {
    service,
    cache,
    signIn,
    push,
    reconnected$,
    historyWhen,
    /** Charts these pairs (their histories subscribed) until the test ends. */
    chart: (...symbols: SymbolId[]) => symbols.forEach((s) => subscriptions.push(service.history$(s).subscribe())),
  };
}

describe('the spreads service', () => {
  it('fills the last day from the server, then adds live prices sampled at one a second', async () => {
    const clock = { now: T0 };
    const server = fakeServer(clock);
    const t = setup('spreads-a', clock, server.http);
    t.chart('BTC/USDT', 'ETH/USDT');
    t.signIn();
    const filled = await t.historyWhen('BTC/USDT', (p) => p.length >= 24 * 60);
    expect(filled).toHaveLength(24 * 60);
    expect(filled[0]?.t).toBe(T0 - DAY);
    await expect.poll(() => server.calls.map((c) => c.symbol).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(server.calls[0]?.from).toBe(new Date(T0 - DAY).toISOString());

    // Ten prices over two and a half seconds: the first two seconds are complete, the last of each is kept.
    for (let i = 0; i < 10; i += 1) t.push(price('BTC/USDT', T0 + i * 250, 100 + i / 100));
    const live = await t.historyWhen('BTC/USDT', (p) => p.length >= 24 * 60 + 2);
    expect(live.slice(-2).map((p) => [p.t, p.deriv])).toEqual([
      [T0, 100.03],
      [T0 + 1000, 100.07],
    ]);

    // After a reconnect only what the cache lacks is asked for: from the second after its newest point.
    clock.now = T0 + 5 * MINUTE;
    const before = server.calls.length;
    t.reconnected$.next();
    await expect.poll(() => server.calls.length).toBe(before + 2);
    expect(server.calls.slice(before).find((c) => c.symbol === 'BTC/USDT')?.from).toBe(
      new Date(T0 + 2000).toISOString(),
    );
    expect(server.calls.slice(before).find((c) => c.symbol === 'ETH/USDT')?.from).toBe(
      new Date(T0 - MINUTE + 1000).toISOString(),
    );
  });

  it('serves the cached day offline, after a reload, and forgets what is older than a day', async () => {
    const clock = { now: T0 };
    const server = fakeServer(clock);
    const online = setup('spreads-b', clock, server.http);
    online.chart('ETH/USDT');
    online.signIn();
    for (let i = 0; i < 8; i += 1) online.push(price('ETH/USDT', T0 + i * 500, 100.02));
    const seen = await online.historyWhen('ETH/USDT', (p) => p.length >= 24 * 60 + 3);

    // The app is reloaded without a network: no server, no live prices; the cache answers.
    server.goOffline();
    subscriptions.splice(0).forEach((s) => s.unsubscribe());
    const offline = setup('spreads-b', clock, server.http);
    offline.chart('ETH/USDT');
    offline.signIn();
    expect(await offline.historyWhen('ETH/USDT', (p) => p.length > 0)).toEqual(seen);

    // Two hours later (still offline) the window has moved on; a live sample arriving prunes the cache too.
    clock.now = T0 + 2 * HOUR;
    offline.push(price('ETH/USDT', clock.now, 100.01));
    offline.push(price('ETH/USDT', clock.now + 1000, 100.01));
    await expect.poll(async () => (await offline.cache.readSpreads('ETH/USDT', 0))[0]?.t).toBe(T0 + 2 * HOUR - DAY);
    const later = await offline.historyWhen('ETH/USDT', (p) => p[p.length - 1]?.t === clock.now);
    expect(later[0]!.t).toBeGreaterThanOrEqual(clock.now - DAY);
  });

  it('fetches only the pairs a chart draws: once when a chart starts drawing one, and after a reconnect', async () => {
    const clock = { now: T0 };
    const server = fakeServer(clock);
    const t = setup('spreads-c', clock, server.http);
    t.signIn();
    t.chart('BTC/USDT');
    await t.historyWhen('BTC/USDT', (p) => p.length >= 24 * 60);
    expect(server.calls.map((c) => c.symbol)).toEqual(['BTC/USDT']);

    // A reconnect refills the charted pair alone.
    clock.now = T0 + MINUTE;
    t.reconnected$.next();
    await expect.poll(() => server.calls.length).toBe(2);
    expect(server.calls[1]?.symbol).toBe('BTC/USDT');

    // The chart turns to Litecoin: its day is fetched at once, and after the next reconnect both are refilled while
    // both are charted (the first chart stays drawn here).
    t.chart('LTC/USDT');
    await t.historyWhen('LTC/USDT', (p) => p.length > 0);
    expect(server.calls[2]?.symbol).toBe('LTC/USDT');
    clock.now = T0 + 2 * MINUTE;
    t.reconnected$.next();
    await expect.poll(() => server.calls.length).toBe(5);
    expect(
      server.calls
        .slice(3)
        .map((c) => c.symbol)
        .sort(),
    ).toEqual(['BTC/USDT', 'LTC/USDT']);

    // Charts gone: a reconnect fetches nothing.
    subscriptions.splice(0).forEach((s) => s.unsubscribe());
    t.reconnected$.next();
    await new Promise((r) => setTimeout(r, 50));
    expect(server.calls).toHaveLength(5);
  });
});
