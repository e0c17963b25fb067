import { describe, expect, it } from 'vitest';
import type { SpreadPoint } from '../../../contract/entities';
import { mergeSpreadPoints } from './spreadSeries';

const p = (t: number, spread = t / 1e6): SpreadPoint => ({
  t,
  binance: 100,
  deriv: 100 * (1 + spread),
  spread,
  spreadLow: spread,
  spreadHigh: spread,
});
const times = (points: SpreadPoint[]) => points.map((x) => x.t);

describe('mergeSpreadPoints', () => {
  it.each([
    {
      name: 'appends live samples after the newest point',
      series: [1, 2],
      incoming: [3, 4],
      from: 0,
      expected: [1, 2, 3, 4],
    },
    {
      name: 'fills a gap that a snapshot brings',
      series: [1, 5],
      incoming: [2, 3, 4],
      from: 0,
      expected: [1, 2, 3, 4, 5],
    },
    { name: 'keeps one point per time', series: [1, 2, 3], incoming: [2, 3, 4], from: 0, expected: [1, 2, 3, 4] },
    { name: 'drops what has aged out of the window', series: [1, 2, 3], incoming: [4], from: 3, expected: [3, 4] },
    { name: 'drops incoming points older than the window', series: [], incoming: [1, 2, 3], from: 2, expected: [2, 3] },
    {
      name: 'sorts incoming points that arrive out of order',
      series: [],
      incoming: [3, 1, 2],
      from: 0,
      expected: [1, 2, 3],
    },
    { name: 'leaves the series alone when nothing arrives', series: [1, 2], incoming: [], from: 0, expected: [1, 2] },
  ])('$name', ({ series, incoming, from, expected }) => {
    expect(
      times(
        mergeSpreadPoints(
          series.map((t) => p(t)),
          incoming.map((t) => p(t)),
          from,
        ),
      ),
    ).toEqual(expected);
  });

  it('lets a new point replace an old one at the same time', () => {
    const merged = mergeSpreadPoints([p(1, 0.5), p(2)], [p(1, 0.25)], 0);
    expect(merged[0]?.spread).toBe(0.25);
  });
});
