import { defer, Subject, throwError, toArray, firstValueFrom, take } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { SymbolId } from '../../../contract/domain';
import { NO_EDGE, nextEdge, opportunityEdges, priceTicks, spreadOf, toPriceTick, toSymbolPrice } from '../../../server/engine/prices';
import type { Quote } from '../../../server/venues/types';

const q = (venue: 'binance' | 'deriv', mid: number, ts = 1000, symbol: SymbolId = 'BTC/USDT'): Quote => ({ venue, symbol, bid: mid - 1, ask: mid + 1, ts });

describe('spread', () => {
  it('is (deriv − binance) / binance as a fraction', () => {
    expect(spreadOf(100, 101)).toBeCloseTo(0.01, 12);
    expect(spreadOf(100, 99)).toBeCloseTo(-0.01, 12);
  });

  it('is null until both venues quoted, and prices show what is known', () => {
    const tick = toPriceTick('BTC/USDT', q('binance', 50_000), null);
    expect(tick.spread).toBeNull();
    const price = toSymbolPrice(tick, 0.002);
    expect(price).toMatchObject({ symbol: 'BTC/USDT', binance: 50_000, deriv: null, spread: null, arbitrage: { profitable: false } });
  });

  it('judges profitable against the threshold given', () => {
    const tick = toPriceTick('BTC/USDT', q('binance', 50_000), q('deriv', 50_150));
    expect(toSymbolPrice(tick, 0.002).arbitrage.profitable).toBe(true);
    expect(toSymbolPrice(tick, 0.005).arbitrage.profitable).toBe(false);
  });
});

describe('opportunity edges', () => {
  const tickAt = (spread: number) => toPriceTick('BTC/USDT', q('binance', 10_000), q('deriv', 10_000 * (1 + spread)));

  it('emits once on the rising edge, again after falling back, and on a direction flip', () => {
    const spreads = [0.001, 0.004, 0.005, 0.006, 0.001, 0.004, -0.004, -0.005];
    let state = NO_EDGE;
    const emitted: number[] = [];
    for (const s of spreads) {
      state = nextEdge(state, tickAt(s), 0.003);
      if (state.emit) emitted.push(Math.round(state.emit.spread * 1000) / 1000);
    }
    expect(emitted).toEqual([0.004, 0.004, -0.004]);
  });

  it('combines both venues per symbol and emits opportunities from the stream', async () => {
    const b = new Subject<Quote>();
    const d = new Subject<Quote>();
    const venues = { binance: { quotes: () => b }, deriv: { quotes: () => d } };
    const ticks = priceTicks(venues, ['BTC/USDT']);
    const seen = firstValueFrom(ticks.pipe(take(3), toArray()));
    const opportunities = firstValueFrom(opportunityEdges(priceTicks(venues, ['BTC/USDT']), 0.003).pipe(take(1), toArray()));
    b.next(q('binance', 10_000));
    d.next(q('deriv', 10_010));
    d.next(q('deriv', 10_050));
    const list = await seen;
    expect(list.map((t) => t.spread)).toEqual([null, expect.closeTo(0.001, 9), expect.closeTo(0.005, 9)]);
    expect((await opportunities)[0]).toMatchObject({ pair: 'BTC/USDT', direction: 'deriv-rich' });
  });

  it('subscribes again to a venue stream that failed, so prices never stop for good', () => {
    vi.useFakeTimers();
    try {
      const d = new Subject<Quote>();
      let attempts = 0;
      const flaky = defer(() => (++attempts === 1 ? throwError(() => new Error('stream dropped')) : d));
      const b = new Subject<Quote>();
      const seen: (number | null)[] = [];
      const sub = priceTicks({ binance: { quotes: () => b }, deriv: { quotes: () => flaky } }, ['BTC/USDT']).subscribe((t) => seen.push(t.spread));
      b.next(q('binance', 10_000));
      vi.advanceTimersByTime(1000);
      d.next(q('deriv', 10_100));
      expect(attempts).toBe(2);
      expect(seen.at(-1)).toBeCloseTo(0.01, 9);
      sub.unsubscribe();
    } finally {
      vi.useRealTimers();
    }
  });
});
