// The replay is the engine: the live engine trades a seeded simulated market (paper venues, in-memory storage) while
// every quote the market publishes is recorded; replaying those quotes with the same limits makes the same trades —
// same count, symbols, directions, opening spreads, statuses and profits to the last stored decimal.
import { VirtualTimeScheduler, type SchedulerLike } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SYMBOLS, VENUES } from '../../../contract/domain';
import { ArbitrageEngine } from '../../../server/engine/engine';
import { replayQuotes, type ReplayLimits } from '../../../server/engine/replay/replay';
import { isTerminal } from '../../../server/engine/trade-state';
import { SimMarket } from '../../../server/venues/sim/market';
import { InMemoryPaperBook } from '../../../server/venues/sim/paper-book';
import { DEMO_PARAMS } from '../../../server/venues/sim/profiles';
import { SimVenue } from '../../../server/venues/sim/venue';
import type { Quote } from '../../../server/venues/types';
import { fixedFigures, MemoryTradeStore, MemoryUsers } from '../../../tools/doubles/memory-engine-parts';

/** A clock the test moves by hand: the market stamps its quotes with it and the engine reads it as now. */
function manualClock(start: number): { scheduler: SchedulerLike; advance: (ms: number) => void } {
  const clock = { t: start };
  const scheduler = new VirtualTimeScheduler();
  return {
    scheduler: Object.assign(Object.create(scheduler) as SchedulerLike, { now: () => clock.t }),
    advance: (ms) => (clock.t += ms),
  };
}

async function engineRun(seed: number, minutes: number, limits: ReplayLimits) {
  const { scheduler, advance } = manualClock(Date.parse('2026-11-01T00:00:00Z'));
  // The demo profile dislocates often enough that half an hour holds a few dozen trades, wins and losses both.
  const market = new SimMarket({ seed, params: DEMO_PARAMS, scheduler });
  const recorded: Quote[] = [];
  // Subscribed in the order the market publishes (per symbol, Binance then Deriv); the first step is replayed at once.
  for (const symbol of SYMBOLS)
    for (const venue of VENUES) market.quotes(venue, symbol).subscribe((q) => recorded.push(q));
  const book = new InMemoryPaperBook();
  const store = new MemoryTradeStore();
  const users = new MemoryUsers(store);
  users.set('trader', {
    tradingEnabled: true,
    minSpread: String(limits.minSpread),
    maxExposure: limits.maxExposure,
    maxLoss: limits.maxLoss,
  });
  const engine = new ArbitrageEngine({
    venues: {
      binance: new SimVenue('binance', { market, paperBook: book, latencyMs: 0 }),
      deriv: new SimVenue('deriv', { market, paperBook: book, latencyMs: 0 }),
    },
    store,
    users,
    account: async (userId) => ({ userId, credentials: {} }),
    figures: fixedFigures(),
    now: () => market.now(),
    // Time limits are checked on every tick; no timer may act on the hand-moved clock between steps.
    housekeepingMs: 3_600_000,
    userSyncMs: 3_600_000,
  });
  await engine.start();
  await engine.idle();
  expect(engine.decisions.realisedKnown('trader')).toBe(true);
  for (let step = 0; step < (minutes * 60_000) / DEMO_PARAMS.tickMs; step += 1) {
    advance(DEMO_PARAMS.tickMs);
    market.step();
    // Orders meet the venue's quote of the step they were decided in, as with a latency shorter than a step.
    await engine.idle();
  }
  await engine.stop();
  market.close();
  const trades = [...store.states.values()]
    .filter((s) => isTerminal(s.stage))
    .sort(
      (a, b) =>
        (a.closedAt as Date).getTime() - (b.closedAt as Date).getTime() ||
        a.createdAt.getTime() - b.createdAt.getTime(),
    );
  const open = [...store.states.values()].filter((s) => !isTerminal(s.stage)).length;
  return { trades, open, recorded, stops: users.stops };
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
