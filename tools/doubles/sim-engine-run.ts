// The live engine trading the simulated market on a hand-moved clock, for the backtest-versus-engine test and its
// benchmark: paper venues, in-memory trades and settings, one trading user. What the engine emits (its decided ticks,
// its prices) is handed to whatever the caller attaches — the recorders — before the market moves.
import { VirtualTimeScheduler, type SchedulerLike } from 'rxjs';
import { money } from '../../server/engine/decimal';
import { ArbitrageEngine } from '../../server/engine/engine';
import { isTerminal, type TradeState } from '../../server/engine/trade-state';
import { SimMarket } from '../../server/venues/sim/market';
import { InMemoryPaperBook } from '../../server/venues/sim/paper-book';
import type { SimParams } from '../../server/venues/sim/params';
import { SimVenue } from '../../server/venues/sim/venue';
import { fixedFigures, MemoryTradeStore, MemoryUsers } from './memory-engine-parts';

export interface SimEngineLimits {
  /** Fraction. */
  minSpread: number;
  /** USDT, as a number or a decimal string (the replay's limits). */
  maxExposure: number | string;
  maxLoss: number | string;
}

export interface SimEngineRun {
  /** Finished trades in the order they finished. */
  trades: TradeState[];
  open: number;
  stops: { userId: string; reason: string }[];
  /** Realised P&L of the finished trades, USDT. */
  netProfit: number;
}

/** A clock moved by hand: the market stamps its quotes with it and the engine reads it as now. */
function manualClock(start: number): { scheduler: SchedulerLike; advance: (ms: number) => void } {
  const clock = { t: start };
  const scheduler = new VirtualTimeScheduler();
  return {
    scheduler: Object.assign(Object.create(scheduler) as SchedulerLike, { now: () => clock.t }),
    advance: (ms) => (clock.t += ms),
  };
}

export async function runEngineOnSim(options: {
  seed: number;
  params: SimParams;
  /** ms since epoch: the clock's start. */
  start: number;
  minutes: number;
  limits: SimEngineLimits;
  /** Called with the market as soon as it exists, before anything subscribes to it (a test records its quotes). */
  onMarket?: (market: SimMarket) => void;
  /** Called once the engine has started, before the market moves; returns what to do when the run ends. */
  attach?: (engine: ArbitrageEngine) => () => Promise<void>;
}): Promise<SimEngineRun> {
  const { seed, params, start, minutes, limits } = options;
  const { scheduler, advance } = manualClock(start);
  const market = new SimMarket({ seed, params, scheduler });
  options.onMarket?.(market);
  const book = new InMemoryPaperBook();
  const store = new MemoryTradeStore();
  const users = new MemoryUsers(store);
  users.set('trader', {
    tradingEnabled: true,
    minSpread: String(limits.minSpread),
    maxExposure: String(limits.maxExposure),
    maxLoss: String(limits.maxLoss),
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
  // Trading (and the decided ticks) begin once the engine leads, before the first step.
  await engine.start();
  await engine.idle();
  const detach = options.attach?.(engine);
  for (let step = 0; step < (minutes * 60_000) / params.tickMs; step += 1) {
    advance(params.tickMs);
    market.step();
    // Orders meet the venue's quote of the step they were decided in, as with a latency shorter than a step.
    await engine.idle();
  }
  await detach?.();
  await engine.stop();
  market.close();
  const all = [...store.states.values()];
  const trades = all
    .filter((s) => isTerminal(s.stage))
    .sort(
      (a, b) =>
        (a.closedAt as Date).getTime() - (b.closedAt as Date).getTime() ||
        a.createdAt.getTime() - b.createdAt.getTime(),
    );
  return {
    trades,
    open: all.length - trades.length,
    stops: users.stops,
    netProfit: trades.reduce((sum, t) => sum.plus(t.actualProfit), money(0)).toNumber(),
  };
}
