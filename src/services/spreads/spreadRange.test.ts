import { firstValueFrom, Subject, BehaviorSubject, skip, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { SpreadPoint, SymbolPrice } from '../../../contract/entities';
import { withLivePrices } from './spreadRange';

const T0 = Date.UTC(2026, 3, 1, 12);
const point = (t: number, spread: number): SpreadPoint => ({
  t,
  binance: 100,
  deriv: 100 * (1 + spread),
  spread,
  spreadLow: spread,
  spreadHigh: spread,
});
const price = (symbol: SymbolPrice['symbol'], at: number, deriv: number, stale = false): SymbolPrice => ({
  symbol,
  binance: 100,
  deriv,
  spread: (deriv - 100) / 100,
  arbitrage: { profitable: false },
  timestamp: new Date(at).toISOString(),
  stale,
  ageMs: { binance: 0, deriv: 0 },
});

describe('withLivePrices', () => {
  it("adds each live price of the pair at once as its second's sample, the last of a second winning, stale ones left out", async () => {
    const series$ = new BehaviorSubject<SpreadPoint[]>([point(T0 - 1000, 0.001)]);
    const prices$ = new Subject<SymbolPrice>();
    const out = firstValueFrom(
      withLivePrices(series$, prices$, 'BTC/USDT', () => T0 - 60_000).pipe(skip(1), take(3), toArray()),
    );
    prices$.next(price('BTC/USDT', T0 + 100, 100.2));
    prices$.next(price('ETH/USDT', T0 + 200, 100.9));
    prices$.next(price('BTC/USDT', T0 + 700, 100.3));
    prices$.next(price('BTC/USDT', T0 + 1200, 150, true));
    prices$.next(price('BTC/USDT', T0 + 1500, 100.1));
    const emitted = await out;
    expect(emitted.map((s) => s.map((p) => [p.t, Number(p.spread.toFixed(4))]))).toEqual([
      [
        [T0 - 1000, 0.001],
        [T0, 0.002],
      ],
      [
        [T0 - 1000, 0.001],
        [T0, 0.003],
      ],
      [
        [T0 - 1000, 0.001],
        [T0, 0.003],
        [T0 + 1000, 0.001],
      ],
    ]);
  });
});
