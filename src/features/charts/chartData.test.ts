import { describe, expect, it } from 'vitest';
import type { SpreadPoint, Trade } from '../../../contract/entities';
import { bucketPoints, equitySummary, spreadSummary, toSeconds, tradeMarks } from './chartData';

const p = (t: number, spread: number): SpreadPoint => ({
  t,
  binance: 100,
  deriv: 100 * (1 + spread),
  spread,
  spreadLow: spread,
  spreadHigh: spread,
});

describe('bucketPoints', () => {
  it('keeps every point in range while they fit', () => {
    const pts = [p(0, 0.001), p(1000, 0.002), p(5000, 0.003)];
    expect(bucketPoints(pts, 1000, 5000).map((x) => x.t)).toEqual([1000, 5000]);
  });
  it('averages equal time buckets down to the limit, keeping each bucket’s low and high', () => {
    const pts = Array.from({ length: 100 }, (_, i) => p(i * 1000, i % 2 === 0 ? 0.001 : 0.003));
    const out = bucketPoints(pts, 0, 99_000, 10);
    expect(out.length).toBeLessThanOrEqual(10);
    expect(out[0]).toMatchObject({ t: 0, spreadLow: 0.001, spreadHigh: 0.003 });
    expect(out[0]!.spread).toBeCloseTo(0.002, 10);
    expect(out.every((x, i) => i === 0 || x.t > out[i - 1]!.t)).toBe(true);
  });
});

describe('tradeMarks', () => {
  const trade = (symbol: Trade['symbol'], createdAt: string, closedAt: string | null) =>
    ({ symbol, createdAt, closedAt, tradeId: `T-${createdAt}` }) as Trade;
  it("marks each trade's open and close on the pair inside the range", () => {
    const marks = tradeMarks(
      [
        trade('BTC/USDT', '2026-01-01T00:02:00Z', null),
        trade('BTC/USDT', '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z'),
        trade('ETH/USDT', '2026-01-01T00:00:30Z', null),
      ],
      'BTC/USDT',
      Date.parse('2026-01-01T00:00:00Z'),
      Date.parse('2026-01-01T00:05:00Z'),
    );
    expect(marks.map((m) => m.kind)).toEqual(['open', 'close', 'open']);
  });
});

describe('summaries', () => {
  it('says the latest spread with its sign explained and the range', () => {
    expect(spreadSummary([p(0, -0.001), p(1000, 0.0027)], '1 h')).toBe(
      'Latest: Deriv 0.27% above Binance. Over the last 1 h the spread ranged from -0.10% to 0.27%.',
    );
    expect(spreadSummary([], '15 min')).toBe('No spread history for the last 15 min yet.');
  });
  it('says where the equity curve stands', () => {
    expect(
      equitySummary([
        { t: 1, equity: -2 },
        { t: 2, equity: 3.5 },
      ]),
    ).toBe('Realised P&L after 2 finished trades: $3.50 (lowest -$2.00, highest $3.50).');
    expect(equitySummary([])).toMatch(/No finished trades yet/);
  });
});

describe('toSeconds', () => {
  it('keeps one point a second, the last, rising strictly', () => {
    expect(toSeconds([{ t: 1000 }, { t: 1500 }, { t: 900 }, { t: 3000 }]).map((x) => [x.t, x.time])).toEqual([
      [1500, 1],
      [3000, 3],
    ]);
  });
});
