import { describe, expect, it } from 'vitest';
import { money } from '../decimal';
import { equitySeries, replayFigures } from './figures';
import type { ReplayOutcome, ReplayTrade } from './replay';

const trade = (closedAt: number, profit: string, status: ReplayTrade['status'] = 'completed'): ReplayTrade => ({
  tradeId: `T${closedAt}`,
  symbol: 'BTC/USDT',
  direction: 'deriv-rich',
  notional: '250',
  openSpread: 0.004,
  status,
  actualProfit: profit,
  reason: 'converged',
  openedAt: closedAt - 1000,
  closedAt,
});
const outcome = (trades: ReplayTrade[]): ReplayOutcome => ({
  trades,
  open: 0,
  peakCommitted: money(500),
  stopped: null,
  refused: 0,
  quotes: 0,
});

describe('replay figures', () => {
  it('uses the contract definitions: win rate over decided trades, net P&L over every finished trade', () => {
    // A failed trade refused on both legs moved nothing (0): neither won nor lost.
    const f = replayFigures(
      outcome([trade(1, '2.5'), trade(2, '-1'), trade(3, '0', 'failed'), trade(4, '0.5', 'cancelled')]),
    );
    expect(f).toEqual({
      trades: 4,
      winRate: (2 * 100) / 3,
      wonTrades: 2,
      decidedTrades: 3,
      netProfit: 2,
      maxDrawdown: 1,
      exposureUsed: 500,
    });
  });

  it('measures the drawdown from the running peak, as maxLoss does', () => {
    const f = replayFigures(outcome([trade(1, '-3'), trade(2, '5'), trade(3, '-4'), trade(4, '1'), trade(5, '-2.5')]));
    // P&L: -3, 2, -2, -1, -3.5; peak 2 (or 0 before it): the largest fall is 2 → -3.5 = 5.5.
    expect(f.maxDrawdown).toBe(5.5);
    expect(f.netProfit).toBe(-3.5);
  });

  it('bounds the equity series and keeps the dips a drawdown reports', () => {
    const trades = Array.from({ length: 5000 }, (_, i) => trade(1000 + i * 10, i === 2500 ? '-500' : '0.1'));
    const series = equitySeries(outcome(trades), 0, 60_000, 400);
    expect(series.length).toBeLessThanOrEqual(400);
    expect(series[0]).toEqual({ t: 0, equity: 0 });
    expect(series.at(-1)).toEqual({ t: 60_000, equity: Number(money('0.1').times(4999).minus(500).toFixed()) });
    const lowest = Math.min(...series.map((p) => p.equity));
    expect(lowest).toBeCloseTo(0.1 * 2500 - 500, 6);
    for (let i = 1; i < series.length; i += 1) expect(series[i]!.t).toBeGreaterThanOrEqual(series[i - 1]!.t);
  });

  it('keeps every step of a short series', () => {
    expect(equitySeries(outcome([trade(10, '1'), trade(20, '-0.5')]), 0, 30, 400)).toEqual([
      { t: 0, equity: 0 },
      { t: 10, equity: 1 },
      { t: 20, equity: 0.5 },
      { t: 30, equity: 0.5 },
    ]);
  });
});
