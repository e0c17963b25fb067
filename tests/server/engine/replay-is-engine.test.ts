// The replay is the engine: the live engine trades a seeded simulated market (paper venues, in-memory storage) while
// every quote the market publishes is recorded; replaying those quotes with the same limits makes the same trades —
// same count, symbols, directions, opening spreads, statuses and profits to the last stored decimal.
import { describe, expect, it } from 'vitest';
import { VENUES } from '../../../contract/domain';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../../../contract/pairs';
import { replayQuotes, type ReplayLimits } from '../../../server/engine/replay/replay';
import { DEMO_PARAMS } from '../../../server/venues/sim/profiles';
import type { Quote } from '../../../server/venues/types';
import { runEngineOnSim } from '../../../tools/doubles/sim-engine-run';

async function engineRun(seed: number, minutes: number, limits: ReplayLimits) {
  const recorded: Quote[] = [];
  const run = await runEngineOnSim({
    seed,
    // The demo profile dislocates often enough that half an hour holds a few dozen trades, wins and losses both.
    params: DEMO_PARAMS,
    start: Date.parse('2026-11-01T00:00:00Z'),
    minutes,
    limits,
    // Subscribed in the order the market publishes (per symbol, Binance then Deriv); the first step is replayed at once.
    onMarket: (market) => {
      for (const symbol of SYMBOLS)
        for (const venue of VENUES) market.quotes(venue, symbol).subscribe((q) => recorded.push(q));
    },
    attach: (engine) => {
      expect(engine.decisions.realisedKnown('trader')).toBe(true);
      return async () => undefined;
    },
  });
  return { trades: run.trades, open: run.open, recorded, stops: run.stops };
}

describe('replay of recorded quotes', () => {
  it.each([
    { seed: 7, limits: { minSpread: 0.002, maxExposure: '1000', maxLoss: '100' }, halts: false },
    // Tight limits: a small maxLoss halts trading part-way, and the replay must halt after the same trade.
    { seed: 21, limits: { minSpread: 0.004, maxExposure: '4000', maxLoss: '2' }, halts: true },
  ])('makes the trades the engine made on the same quotes (seed $seed)', async ({ seed, limits, halts }) => {
    const live = await engineRun(seed, 30, limits);
    const replay = replayQuotes(live.recorded, limits);

    expect(live.trades.length).toBeGreaterThan(halts ? 1 : 10);
    expect(live.stops.length > 0).toBe(halts);
    // Both won and lost trades, so the equality covers profits of either sign.
    expect(
      live.trades.some((t) => Number(t.actualProfit) > 0) && live.trades.some((t) => Number(t.actualProfit) < 0),
    ).toBe(true);
    const shape = (t: {
      symbol: string;
      direction: string;
      openSpread: number;
      status: string;
      actualProfit: string;
      notional: string;
    }) => ({
      symbol: t.symbol,
      direction: t.direction,
      openSpread: t.openSpread,
      notional: t.notional,
      status: t.status,
      actualProfit: t.actualProfit,
    });
    expect(replay.trades.map(shape)).toEqual(live.trades.map((t) => shape({ ...t, status: t.stage })));
    expect(replay.trades.map((t) => t.reason)).toEqual(live.trades.map((t) => t.reason));
    expect(replay.open).toBe(live.open);
    expect(replay.stopped?.reason ?? null).toBe(live.stops[0]?.reason ?? null);
  });
});
