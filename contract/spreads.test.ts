import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SymbolId } from './domain';
import type { SymbolPrice } from './entities';
import {
  nextSpreadSample,
  SPREAD_MAX_POINTS,
  SPREAD_MAX_RANGE_MS,
  SPREAD_RAW_KEEP_MS,
  SPREAD_RESOLUTIONS_SECONDS,
  spreadResolutionSeconds,
  type SpreadSample,
} from './spreads';

const NOW = Date.UTC(2026, 5, 1);

describe('spreadResolutionSeconds', () => {
  it('is the finest resolution that fits the range in the point limit, never finer than what is stored', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: SPREAD_MAX_RANGE_MS }),
        fc.integer({ min: 0, max: 400 * 24 * 3600 * 1000 }),
        (rangeMs, ageMs) => {
          const to = NOW - ageMs;
          const from = to - rangeMs;
          const r = spreadResolutionSeconds(from, to, NOW);
          expect(Math.ceil(rangeMs / 1000 / r)).toBeLessThanOrEqual(SPREAD_MAX_POINTS);
          if (from < NOW - SPREAD_RAW_KEEP_MS) expect(r).toBeGreaterThanOrEqual(60);
          const finer = SPREAD_RESOLUTIONS_SECONDS.filter((x) => x < r);
          const floor = from < NOW - SPREAD_RAW_KEEP_MS ? 60 : 1;
          for (const f of finer) expect(f < floor || Math.ceil(rangeMs / 1000 / f) > SPREAD_MAX_POINTS).toBe(true);
        },
      ),
    );
    expect(spreadResolutionSeconds(NOW - 3600_000, NOW, NOW)).toBe(1);
    expect(spreadResolutionSeconds(NOW - 3601_000, NOW, NOW)).toBe(5);
  });
});

describe('nextSpreadSample', () => {
  const price = (symbol: SymbolId, at: number, binance: number | null, deriv: number | null): SymbolPrice => ({
    symbol,
    binance,
    deriv,
    spread: binance !== null && deriv !== null ? (deriv - binance) / binance : null,
    arbitrage: { profitable: false },
    timestamp: new Date(at).toISOString(),
    stale: false,
    ageMs: { binance: 0, deriv: 0 },
  });

  it('hands out the last price of each second once the next second begins, per symbol', () => {
    const open = new Map<SymbolId, SpreadSample>();
    const out = [
      nextSpreadSample(open, price('BTC/USDT', NOW + 100, 100, 101)),
      nextSpreadSample(open, price('ETH/USDT', NOW + 150, 10, 10)),
      nextSpreadSample(open, price('BTC/USDT', NOW + 900, 100, 102)),
      nextSpreadSample(open, price('BTC/USDT', NOW + 1_000, 100, 103)),
      // A late price of an ended second changes nothing.
      nextSpreadSample(open, price('BTC/USDT', NOW + 999, 100, 200)),
      nextSpreadSample(open, price('ETH/USDT', NOW + 5_000, null, 10)),
      nextSpreadSample(open, price('ETH/USDT', NOW + 5_500, 10, 10.01)),
    ];
    expect(out.map((s) => s && { symbol: s.symbol, t: s.t, deriv: s.deriv })).toEqual([
      null,
      null,
      null,
      { symbol: 'BTC/USDT', t: NOW, deriv: 102 },
      null,
      // A price without both venues makes no sample.
      null,
      { symbol: 'ETH/USDT', t: NOW, deriv: 10 },
    ]);
    expect(open.get('BTC/USDT')?.deriv).toBe(103);
  });

  it('records nothing from a stale price: a stalled feed beside a moving one is not a spread the market had', () => {
    const open = new Map<SymbolId, SpreadSample>();
    expect(nextSpreadSample(open, { ...price('BTC/USDT', NOW + 100, 100, 101), stale: true })).toBeNull();
    expect(open.size).toBe(0);
    expect(nextSpreadSample(open, price('BTC/USDT', NOW + 1_100, 100, 101))).toBeNull();
    expect(nextSpreadSample(open, { ...price('BTC/USDT', NOW + 2_100, 100, 110), stale: true })).toBeNull();
    expect(open.get('BTC/USDT')?.deriv).toBe(101);
  });
});
