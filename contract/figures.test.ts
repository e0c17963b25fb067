import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRADE_STATUSES, type TradeStatus } from './domain';
import { drawdownOf, equityCurve, isFinished, NO_WIN_RATE, winRate, winRateText } from './figures';

const trade = (
  status: TradeStatus,
  actualProfit: number,
  closedAt: string | null,
  updatedAt = '2026-01-01T00:00:00Z',
) => ({ status, actualProfit, closedAt, updatedAt });

describe('equityCurve', () => {
  it('runs the realised P&L of finished trades in the order they closed, leaving open trades out', () => {
    const curve = equityCurve([
      trade('completed', 2, '2026-01-01T00:03:00Z'),
      trade('pending', 0, null),
      trade('failed', -0.5, '2026-01-01T00:01:00Z'),
      trade('cancelled', 1, null, '2026-01-01T00:02:00Z'),
    ]);
    expect(curve).toEqual([
      { t: Date.parse('2026-01-01T00:01:00Z'), equity: -0.5 },
      { t: Date.parse('2026-01-01T00:02:00Z'), equity: 0.5 },
      { t: Date.parse('2026-01-01T00:03:00Z'), equity: 2.5 },
    ]);
    expect(equityCurve([])).toEqual([]);
  });

  it('ends at netProfit: the sum of every finished trade', () => {
    const arb = fc.record({
      status: fc.constantFrom(...TRADE_STATUSES),
      actualProfit: fc.integer({ min: -1000, max: 1000 }).map((c) => c / 100),
      closedAt: fc.integer({ min: 0, max: 1e9 }).map((s) => new Date(1.7e12 + s * 1000).toISOString()),
      updatedAt: fc.constant('2026-01-01T00:00:00Z'),
    });
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 30 }), (trades) => {
        const curve = equityCurve(trades);
        const net = trades.filter((t) => isFinished(t.status)).reduce((s, t) => s + t.actualProfit, 0);
        expect(curve.at(-1)?.equity ?? 0).toBeCloseTo(net, 8);
        expect(curve.every((p, i) => i === 0 || p.t >= curve[i - 1]!.t)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});

describe('drawdownOf', () => {
  it('is how far the last point sits below the highest one, zero at a new high or with no trades', () => {
    expect(drawdownOf([])).toBe(0);
    expect(
      drawdownOf([
        { t: 1, equity: 5 },
        { t: 2, equity: 2 },
      ]),
    ).toBe(3);
    expect(drawdownOf([{ t: 1, equity: -2 }])).toBe(2);
    expect(
      drawdownOf([
        { t: 1, equity: 1 },
        { t: 2, equity: 4 },
      ]),
    ).toBe(0);
  });
});

describe('winRateText', () => {
  it("shows '—' while nothing is decided (never a 0.0 %), else won / decided with one decimal", () => {
    expect(winRateText({ winRate: 0, decidedTrades: 0 })).toBe(NO_WIN_RATE);
    expect(winRateText({ winRate: 0 })).toBe(NO_WIN_RATE);
    expect(winRateText(null)).toBe(NO_WIN_RATE);
    expect(winRateText({ winRate: winRate(2, 3), decidedTrades: 3 })).toBe('66.7%');
    expect(winRateText({ winRate: winRate(0, 2), decidedTrades: 2 })).toBe('0.0%');
  });
});
