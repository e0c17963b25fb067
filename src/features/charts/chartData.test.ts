import { describe, expect, it } from 'vitest';
import type { SpreadPoint, Trade } from '../../../contract/entities';
import {
  clusterMarks,
  equitySummary,
  gridStepMs,
  isMissing,
  spreadGrid,
  spreadSummary,
  tradeMarks,
  withChartTimes,
  type TradeMark,
} from './chartData';

const p = (t: number, spread: number): SpreadPoint => ({
  t,
  binance: 100,
  deriv: 100 * (1 + spread),
  spread,
  spreadLow: spread,
  spreadHigh: spread,
});

describe('spreadGrid', () => {
  it('keeps every point in range on its second while they fit', () => {
    const pts = [p(0, 0.001), p(1000, 0.002), p(2000, 0.003)];
    expect(spreadGrid(pts, 1000, 2000).map((x) => x.t)).toEqual([1000, 2000]);
  });
  it('averages each cell down to the limit, keeping each cell’s low and high', () => {
    const pts = Array.from({ length: 100 }, (_, i) => p(i * 1000, i % 2 === 0 ? 0.001 : 0.003));
    const out = spreadGrid(pts, 0, 99_000, 10);
    expect(out.length).toBeLessThanOrEqual(10);
    expect(out[0]).toMatchObject({ t: 0, spreadLow: 0.001, spreadHigh: 0.003 });
    expect((out[0] as SpreadPoint).spread).toBeCloseTo(0.002, 10);
  });
  it('spaces the points evenly in time: minute averages beside one-second samples get their share of the width', () => {
    // An hour: a point a minute for 55 minutes, then one a second for the last five (what the cached day holds after
    // a page has been open a while).
    const hour = 3600_000;
    const pts = [
      ...Array.from({ length: 55 }, (_, i) => p(i * 60_000, 0.001)),
      ...Array.from({ length: 300 }, (_, i) => p(55 * 60_000 + i * 1000, 0.002)),
    ];
    const out = spreadGrid(pts, 0, hour, 1200);
    const steps = new Set(out.slice(1).map((x, i) => x.t - out[i]!.t));
    expect([...steps]).toEqual([5000]);
    // The first 55 minutes take 55/60 of the points, as of the time.
    const before = out.filter((x) => x.t < 55 * 60_000).length / out.length;
    expect(before).toBeGreaterThan(0.9);
    // Between two minute points the cells lie on the straight line the chart draws between them.
    expect(out.every((x) => !isMissing(x))).toBe(true);
  });
  it('leaves a recording gap blank instead of drawing a line across it', () => {
    const out = spreadGrid([p(0, 0.001), p(3600_000, 0.002)], 0, 3600_000, 60);
    expect(out.length).toBe(61);
    expect(out.slice(1, -1).every(isMissing)).toBe(true);
    expect(isMissing(out[60]!)).toBe(false);
  });
  it('starts at the first recorded point, so the data fills the width', () => {
    const out = spreadGrid([p(50 * 60_000, 0.001), p(60 * 60_000, 0.002)], 0, 3600_000, 60);
    expect(out[0]!.t).toBe(50 * 60_000);
  });
});

describe('gridStepMs', () => {
  it('is a round step, so the axis marks fall on round times', () => {
    const minute = 60_000;
    expect(gridStepMs(0, 15 * minute)).toBe(1000);
    expect(gridStepMs(0, 60 * minute)).toBe(5000);
    expect(gridStepMs(0, 24 * 60 * minute)).toBe(2 * minute);
    expect(gridStepMs(0, 7 * 24 * 60 * minute)).toBe(10 * minute);
  });
});

describe('clusterMarks', () => {
  const mark = (t: number, kind: TradeMark['kind']): TradeMark => ({ t, kind, tradeId: `T${t}` });
  it('groups each kind into markers at least the gap apart, counting what each stands for', () => {
    const marks = [mark(0, 'open'), mark(10, 'open'), mark(15, 'close'), mark(90, 'close'), mark(100, 'open')];
    expect(clusterMarks(marks, 50)).toEqual([
      { t: 0, kind: 'open', count: 2 },
      { t: 15, kind: 'close', count: 1 },
      { t: 90, kind: 'close', count: 1 },
      { t: 100, kind: 'open', count: 1 },
    ]);
  });
  it('never puts two markers of a kind closer than the gap, and loses no trade, with a week of bursts', () => {
    const marks: TradeMark[] = [];
    for (let burst = 0; burst < 42; burst++)
      for (let k = 0; k < 5; k++) {
        const t = burst * 4 * 3600_000 + k * 40_000;
        marks.push(mark(t, 'open'), mark(t + 90_000, 'close'));
      }
    marks.sort((a, b) => a.t - b.t);
    // A week over 300 px, markers 26 px apart.
    const gap = 26 * ((7 * 24 * 3600_000) / 300);
    const clusters = clusterMarks(marks, gap);
    for (const kind of ['open', 'close'] as const) {
      const own = clusters.filter((c) => c.kind === kind);
      expect(own.slice(1).every((c, i) => c.t - own[i]!.t >= gap)).toBe(true);
      expect(own.reduce((n, c) => n + c.count, 0)).toBe(210);
    }
    expect(clusters.length).toBeLessThan(60);
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

describe('withChartTimes', () => {
  it('keeps one point a second, the last, rising strictly, on the zone’s wall clock', () => {
    expect(
      withChartTimes([{ t: 1000 }, { t: 1500 }, { t: 900 }, { t: 3000 }], 'Asia/Tokyo').map((x) => [x.t, x.time]),
    ).toEqual([
      [1500, 1 + 9 * 3600],
      [3000, 3 + 9 * 3600],
    ]);
  });
  it('skips the hour a clock goes back rather than repeating its times', () => {
    // Europe/Berlin went back from 03:00 to 02:00 on 2026-10-25 at 01:00 UTC.
    const start = Date.parse('2026-10-25T00:30:00Z');
    const pts = Array.from({ length: 5 }, (_, i) => ({ t: start + i * 30 * 60_000 }));
    const times = withChartTimes(pts, 'Europe/Berlin').map((x) => x.time);
    expect(times.every((t, i) => i === 0 || t > times[i - 1]!)).toBe(true);
    expect(times.length).toBe(3);
  });
});
