import { describe, expect, it } from 'vitest';
import { mergeSeries, quotesOf, toColumns } from './history';

describe('recorded history for the replay', () => {
  it('merges per-symbol series into one time line, minutes before seconds, ties in symbol order', () => {
    const columns = mergeSeries([
      { symbol: 'ETH/USDT', minute: true, t: [0, 60_000], binance: [3000, 3001], deriv: [3000.5, 3001.5] },
      { symbol: 'BTC/USDT', minute: true, t: [0, 60_000], binance: [60_000, 60_001], deriv: [60_001, 60_002] },
      { symbol: 'ETH/USDT', minute: false, t: [120_000, 121_000], binance: [3002, 3003], deriv: [3002.5, 3003.5] },
      { symbol: 'BTC/USDT', minute: false, t: [121_000], binance: [60_003], deriv: [60_004] },
    ]);
    expect([...columns.t]).toEqual([0, 0, 60_000, 60_000, 120_000, 121_000, 121_000]);
    expect([...columns.symbol]).toEqual([0, 1, 0, 1, 1, 0, 1]);
    expect([...columns.minute]).toEqual([1, 1, 1, 1, 0, 0, 0]);
    expect([...columns.binance]).toEqual([60_000, 3000, 60_001, 3001, 3002, 60_003, 3003]);
    expect([...columns.deriv]).toEqual([60_001, 3000.5, 60_002, 3001.5, 3002.5, 60_004, 3003.5]);
  });

  it("rebuilds each venue's book around the recorded mid with its quoted half-spread", () => {
    const columns = toColumns([{ t: 5000, symbol: 'BTC/USDT', binance: 60_000, deriv: 60_030, minute: false }]);
    const [binance, deriv] = [...quotesOf(columns, { binance: 0.00001, deriv: 0.0002 })];
    expect(binance).toEqual({
      venue: 'binance',
      symbol: 'BTC/USDT',
      bid: 60_000 * (1 - 0.00001),
      ask: 60_000 * (1 + 0.00001),
      ts: 5000,
    });
    expect(deriv).toMatchObject({ venue: 'deriv', bid: 60_030 * (1 - 0.0002), ask: 60_030 * (1 + 0.0002), ts: 5000 });
    // The spread the engine computes from the rebuilt books is the recorded one.
    expect(
      ((deriv!.bid + deriv!.ask) / 2 - (binance!.bid + binance!.ask) / 2) / ((binance!.bid + binance!.ask) / 2),
    ).toBeCloseTo(30 / 60_000, 12);
  });
});
