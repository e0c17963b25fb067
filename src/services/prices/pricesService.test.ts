// Offline, "Price age" keeps counting (issue 20): held prices age from when they arrived on this device.
import { BehaviorSubject, Subject, VirtualTimeScheduler, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Prices, PublicUser, SymbolPrice } from '../../../contract/entities';
import { clearUserCaches, createUserCache, type UserCache } from '../../cache/db';
import type { Http } from '../http';
import type { ServerEvent } from '../realtime/socketLink';
import { createSnapshotSource } from '../snapshot/firstPaint';
import type { Live } from '../streams/liveState';
import { agedSince, createPricesService } from './pricesService';

const price = (binanceAge: number, derivAge: number | null): SymbolPrice => ({
  symbol: 'BTC/USDT',
  binance: 60_000,
  deriv: 60_010,
  spread: 10 / 60_000,
  arbitrage: { profitable: false },
  timestamp: '2026-11-26T12:00:00.000Z',
  stale: false,
  ageMs: { binance: binanceAge, deriv: derivAge },
});

describe('agedSince', () => {
  it('adds the time since each price arrived to its ages, and leaves a price of unknown arrival as it was', () => {
    const prices: Prices = { 'BTC/USDT': price(200, null), 'ETH/USDT': { ...price(50, 80), symbol: 'ETH/USDT' } };
    const aged = agedSince(prices, { 'BTC/USDT': 1_000 }, 4_000);
    expect(aged['BTC/USDT']?.ageMs).toEqual({ binance: 3_200, deriv: null });
    expect(aged['ETH/USDT']).toBe(prices['ETH/USDT']);
  });
});

const caches: UserCache[] = [];
const subscriptions: Subscription[] = [];
afterEach(async () => {
  subscriptions.splice(0).forEach((s) => s.unsubscribe());
  for (const c of caches.splice(0)) {
    c.close();
    await clearUserCaches(c.userId);
  }
});

describe('the prices service while the link is down', () => {
  it('keeps the held prices ageing, second by second, then shows the live ages again', async () => {
    // A virtual clock that runs only as far as the test lets it (maxFrames): the ageing ticks never end by themselves.
    const clock = new VirtualTimeScheduler();
    clock.maxFrames = 0;
    const events$ = new Subject<ServerEvent>();
    const reachable$ = new BehaviorSubject(true);
    const http = {
      get: async <T>() => ({ success: true, prices: { 'BTC/USDT': price(100, 300) } }) as unknown as T,
    } as unknown as Http;
    const cache = createUserCache('prices-age');
    caches.push(cache);
    const service = createPricesService({
      http,
      session$: new BehaviorSubject<{ userId: string; token: string } | null>({ userId: 'prices-age', token: 't' }),
      events$,
      reconnected$: new Subject<void>(),
      cacheFor: () => cache,
      firstPaint: createSnapshotSource({ http, invalidate$: new Subject() }),
      onLoadError: () => undefined,
      user$: new BehaviorSubject<PublicUser | null>(null),
      frameScheduler: clock,
      clockScheduler: clock,
      reachable$,
    });
    let last: Live<Prices> | null = null;
    subscriptions.push(service.prices$.subscribe((s) => (last = s)));
    const ages = () => {
      clock.flush();
      return (last as Live<Prices> | null)?.value['BTC/USDT']?.ageMs;
    };
    await expect.poll(() => (ages(), (last as Live<Prices> | null)?.source)).toBe('live');
    expect(ages()).toEqual({ binance: 100, deriv: 300 });

    reachable$.next(false);
    clock.maxFrames = clock.frame + 3_000;
    expect(ages()).toEqual({ binance: 3_100, deriv: 3_300 });

    reachable$.next(true);
    expect(ages()).toEqual({ binance: 100, deriv: 300 });
  });
});

describe('the prices service while the page is hidden', () => {
  it('renders no price while hidden and the latest one, once, when the page is shown again', async () => {
    const frames = new VirtualTimeScheduler();
    const events$ = new Subject<ServerEvent>();
    const visible$ = new BehaviorSubject(true);
    const http = {
      get: async <T>() => ({ success: true, prices: { 'BTC/USDT': price(100, 300) } }) as unknown as T,
    } as unknown as Http;
    const cache = createUserCache('prices-hidden');
    caches.push(cache);
    const service = createPricesService({
      http,
      session$: new BehaviorSubject<{ userId: string; token: string } | null>({ userId: 'prices-hidden', token: 't' }),
      events$,
      reconnected$: new Subject<void>(),
      cacheFor: () => cache,
      firstPaint: createSnapshotSource({ http, invalidate$: new Subject() }),
      onLoadError: () => undefined,
      user$: new BehaviorSubject<PublicUser | null>(null),
      frameScheduler: frames,
      visible$,
    });
    const rendered: number[] = [];
    subscriptions.push(
      service.prices$.subscribe((s) => {
        const binance = s.value['BTC/USDT']?.binance;
        if (s.source === 'live' && typeof binance === 'number') rendered.push(binance);
      }),
    );
    await expect.poll(() => (frames.flush(), rendered)).toEqual([60_000]);

    visible$.next(false);
    for (const binance of [60_001, 60_002, 60_003]) {
      events$.next({ name: 'priceUpdate', payload: { ...price(100, 300), binance } });
      frames.flush();
    }
    expect(rendered).toEqual([60_000]);

    visible$.next(true);
    frames.flush();
    expect(rendered).toEqual([60_000, 60_003]);
  });
});
