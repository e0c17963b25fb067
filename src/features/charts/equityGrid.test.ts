import { describe, expect, it } from 'vitest';
import { equityGrid } from './equityGrid';

describe('equity grid', () => {
  it('puts the curve on evenly spaced times, so the axis reads as time', () => {
    const grid = equityGrid(
      [
        { t: 0, equity: 0 },
        { t: 55_000, equity: 2 },
        { t: 60_000, equity: 2 },
      ],
      0,
      60_000,
      6,
    );
    expect(grid).toEqual([
      { time: 0, value: 0 },
      { time: 10, value: 0 },
      { time: 20, value: 0 },
      { time: 30, value: 0 },
      { time: 40, value: 0 },
      { time: 50, value: 0 },
      { time: 60, value: 2 },
    ]);
    const gaps = grid.slice(1).map((p, i) => p.time - grid[i]!.time);
    expect(new Set(gaps)).toEqual(new Set([10]));
  });

  it('keeps a dip that recovered within one cell, and ends on the final equity', () => {
    const points = [
      { t: 0, equity: 0 },
      { t: 12_000, equity: -5 },
      { t: 13_000, equity: 1 },
      { t: 59_000, equity: 3 },
    ];
    const grid = equityGrid(points, 0, 60_000, 3);
    expect(grid).toEqual([
      { time: 0, value: 0 },
      { time: 20, value: -5 },
      { time: 40, value: 1 },
      { time: 60, value: 3 },
    ]);
  });

  it('never repeats a second, however short the range', () => {
    const grid = equityGrid(
      [
        { t: 0, equity: 0 },
        { t: 1500, equity: 1 },
      ],
      0,
      3000,
      240,
    );
    const times = grid.map((p) => p.time);
    expect(times).toEqual([...new Set(times)].sort((a, b) => a - b));
    expect(grid.at(-1)).toEqual({ time: 3, value: 1 });
  });
});
