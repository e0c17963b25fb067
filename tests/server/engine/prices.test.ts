import { defer, Subject, throwError, toArray, firstValueFrom, take } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { SymbolId } from '../../../contract/domain';
import { DEFAULT_TRADING_PARAMS } from '../../../server/engine/costs';
import {
  NO_EDGE,
  nextEdge,
  opportunityEdges,
  priceTicks,
  spreadOf,
  toPriceTick,
  toSymbolPrice,
} from '../../../server/engine/prices';
import { checkQuotes } from '../../../server/engine/quote-check';
import type { Quote } from '../../../server/venues/types';

const q = (venue: 'binance' | 'deriv', mid: number, ts = 1000, symbol: SymbolId = 'BTC/USDT'): Quote => ({
  venue,
  symbol,
  bid: mid - 1,
  ask: mid + 1,
  ts,
});

describe('spread', () => {
  it('is (deriv − binance) / binance as a fraction', () => {
    expect(spreadOf(100, 101)).toBeCloseTo(0.01, 12);
    expect(spreadOf(100, 99)).toBeCloseTo(-0.01, 12);
  });

  it('is null until both venues quoted, and prices show what is known', () => {
    const tick = toPriceTick('BTC/USDT', q('binance', 50_000), null);
    expect(tick.spread).toBeNull();
    const price = toSymbolPrice(tick, 0.002, 1000, DEFAULT_TRADING_PARAMS);
    expect(price).toMatchObject({
      symbol: 'BTC/USDT',
      binance: 50_000,
      deriv: null,
      spread: null,
      arbitrage: { profitable: false },
      stale: true,
      ageMs: { binance: 0, deriv: null },
    });
  });

  it('judges profitable against the threshold given', () => {
    const tick = toPriceTick('BTC/USDT', q('binance', 50_000), q('deriv', 50_150));
    expect(toSymbolPrice(tick, 0.002, 1000, DEFAULT_TRADING_PARAMS).arbitrage.profitable).toBe(true);
    expect(toSymbolPrice(tick, 0.005, 1000, DEFAULT_TRADING_PARAMS).arbitrage.profitable).toBe(false);
  });
});

describe('quote freshness (issue 9, finding 6)', () => {
  const limits = { quoteMaxAgeMs: 2000, quoteMaxSkewMs: 200 };

  it("sends a price whose venue stopped quoting as stale, never profitable, with each venue's age", () => {
    // Deriv's last quote is 5 s old while Binance is current: the 0.3 % spread is a phantom.
    const tick = toPriceTick('BTC/USDT', q('binance', 50_000, 10_000), q('deriv', 50_150, 5_000));
    const price = toSymbolPrice(tick, 0.002, 10_000, limits);
    expect(price).toMatchObject({ stale: true, arbitrage: { profitable: false }, ageMs: { binance: 0, deriv: 5_000 } });
    expect(checkQuotes(tick.binance, tick.deriv, 10_000, limits)).toEqual({
      ok: false,
      outcome: 'quote_stale',
      reason: 'Deriv has not quoted for 5.0 s',
    });
  });

  it('pairs two quotes only when they are close in time', () => {
    expect(checkQuotes(q('binance', 1, 10_000), q('deriv', 1, 9_800), 10_000, limits)).toEqual({ ok: true });
    const torn = checkQuotes(q('binance', 1, 10_000), q('deriv', 1, 9_750), 10_000, limits);
    expect(torn).toMatchObject({ ok: false, outcome: 'quotes_apart' });
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
    const opportunities = firstValueFrom(
      opportunityEdges(priceTicks(venues, ['BTC/USDT']), 0.003).pipe(take(1), toArray()),
    );
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
      const sub = priceTicks({ binance: { quotes: () => b }, deriv: { quotes: () => flaky } }, ['BTC/USDT']).subscribe(
        (t) => seen.push(t.spread),
      );
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
