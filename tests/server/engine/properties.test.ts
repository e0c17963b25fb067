// Property tests over generated market paths (seeded): the engine's limits hold whatever the market and the venues
// do — venues that refuse everything, quote streams that stall, contracts stopped out — and every finished trade's
// profit is exactly what its fills say.
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../../../contract/pairs';
import { DEFAULT_TRADING_PARAMS } from '../../../server/engine/costs';
import type { UserLimits } from '../../../server/engine/trading-core';
import type { TradeState } from '../../../server/engine/trade-state';
import { runHarness, type HarnessLog, type MarketStep, type OrderBehaviour } from './sync-harness';

const SEED = 20_260_321;
const Exact = Decimal.clone({ precision: 40 });
const params = DEFAULT_TRADING_PARAMS;

const userArb = (i: number): fc.Arbitrary<UserLimits> =>
  fc.record({
    userId: fc.constant(`user-${i}`),
    maxExposure: fc.constantFrom('0', '40', '100', '250', '1000', '5000'),
    maxLoss: fc.constantFrom('0', '0.5', '2', '10', '100'),
    minSpread: fc.constantFrom(0, 0.002, 0.004, 0.01),
    takerFee: fc.constantFrom(0.001, 0.00075),
    autoTrade: fc.constant(true),
    stopped: fc.constant(null),
    windowStart: fc.constant(null),
    symbols: fc.constant(null),
  });

const stepArb: fc.Arbitrary<MarketStep> = fc.record({
  symbol: fc.constantFrom('BTC/USDT' as const, 'ETH/USDT' as const),
  mid: fc.integer({ min: -300, max: 300 }).map((bp) => 60_000 * (1 + bp / 10_000)),
  // mostly calm, sometimes dislocated either way
  spread: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: -10, max: 10 }).map((bp) => bp / 10_000) },
    { weight: 2, arbitrary: fc.integer({ min: -200, max: 200 }).map((bp) => bp / 10_000) },
  ),
  // from quick successions (torn pairs possible) to long silences (stale quotes)
  dtMs: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 50, max: 3_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 3_000, max: 40_000 }) },
  ),
  stall: fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('binance' as const, 'deriv' as const) },
  ),
  stopOut: fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

const behaviourArb = fc.record({ delay: fc.integer({ min: 0, max: 3 }), fails: fc.boolean() });
const scenarioArb = fc.record({
  users: fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => userArb(i)))),
  path: fc.array(stepArb, { minLength: 5, maxLength: 40 }),
  // sometimes a venue that refuses every opening order
  behaviours: fc.oneof(
    { weight: 4, arbitrary: fc.array(behaviourArb, { minLength: 1, maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.array(
        behaviourArb.map((b) => ({ ...b, fails: true })),
        { minLength: 1, maxLength: 5 },
      ),
    },
  ),
});

/** Profit recomputed a different way: every fill as a cash flow (sell +, buy −), minus its fee. */
function cashFlowProfit(trade: TradeState): Decimal {
  let total = new Exact(0);
  for (const leg of trade.legs) {
    const flows: [typeof leg.open, 'buy' | 'sell'][] = [
      [leg.open, leg.side],
      [leg.close, leg.side === 'buy' ? 'sell' : 'buy'],
    ];
    if (!leg.open || !leg.close) {
      // a leg that never filled, or one left without a close, carries no PnL but its fee was paid
      total = total.minus(leg.open?.fee ?? 0).minus(leg.close?.fee ?? 0);
      continue;
    }
    for (const [fill, side] of flows) {
      if (!fill) continue;
      const amount = new Exact(fill.price).times(fill.quantity);
      total = (side === 'sell' ? total.plus(amount) : total.minus(amount)).minus(fill.fee);
    }
  }
  return total;
}

const behaviourOf = (list: OrderBehaviour[]) => (n: number) => list[n % list.length] as OrderBehaviour;

/** No loop: automated trades fail at most a few times in a row, each symbol waits its back-off, then a pause. */
function checkNoLoop(log: HarnessLog, u: UserLimits): number {
  const auto = new Set(log.opens.filter((o) => o.userId === u.userId && o.origin === 'auto').map((o) => o.tradeId));
  let inARow = 0;
  let most = 0;
  for (const t of log.ended.filter((e) => e.userId === u.userId && auto.has(e.tradeId))) {
    if (t.stage === 'failed') most = Math.max(most, ++inARow);
    else if (t.stage === 'completed') inARow = 0;
  }
  // the failure that pauses, plus one trade already in flight on the other symbol
  expect(most).toBeLessThanOrEqual(params.pauseAfterFailures + SYMBOLS.length - 1);
  const paused = log.stops.find((s) => s.userId === u.userId);
  if (paused)
    expect(log.opens.filter((o) => o.userId === u.userId && o.origin === 'auto' && o.step > paused.step)).toEqual([]);
  return paused ? 1 : 0;
}

/**
 * maxLoss: from the trade that took the drawdown to maxLoss, nothing opens; only trades already open then may end
 * (at most one a symbol), so the drawdown never goes beyond maxLoss plus those trades' losses.
 */
function checkDrawdown(log: HarnessLog, u: UserLimits): boolean {
  const maxLoss = new Exact(u.maxLoss);
  const ended = log.ended.filter((t) => t.userId === u.userId);
  let current = new Exact(0);
  let peak = new Exact(0);
  let worst = new Exact(0);
  let reachedAt: number | null = null;
  for (let i = 0; i < ended.length; i += 1) {
    current = current.plus((ended[i] as TradeState).actualProfit);
    peak = Exact.max(peak, current);
    const drawdown = peak.minus(current);
    worst = Exact.max(worst, drawdown);
    if (reachedAt === null && drawdown.gt(0) && drawdown.gte(maxLoss)) reachedAt = i;
  }
  if (reachedAt === null) return false;
  const step = (ended[reachedAt] as { step: number }).step;
  expect(log.opens.filter((o) => o.userId === u.userId && o.step > step)).toEqual([]);
  const after = ended.slice(reachedAt);
  expect(after.length).toBeLessThanOrEqual(SYMBOLS.length);
  const losses = after.reduce((sum, t) => sum.plus(Exact.max(0, new Exact(t.actualProfit).negated())), new Exact(0));
  expect(worst.lte(maxLoss.plus(losses))).toBe(true);
  return true;
}

describe('engine properties over generated market paths', () => {
  it('holds every limit, never loops, never leaves a leg untracked, and computes every profit exactly (10,000 paths)', () => {
    const seen = { trades: 0, halts: 0, pauses: 0, stopOuts: 0, outcomes: 0 };
    fc.assert(
      fc.property(scenarioArb, ({ users, path, behaviours }) => {
        const log = runHarness(users, path, behaviourOf(behaviours));
        // 1. open notional (in-flight included) never exceeds maxExposure
        expect(log.violations).toEqual([]);
        // 2. every trade ends, and no filled leg is left open on a venue
        expect(log.unfinished).toEqual([]);
        for (const t of log.ended) {
          for (const leg of t.legs) {
            expect(['closed', 'unwound', 'failed']).toContain(leg.status);
            if (leg.open) expect(leg.close).not.toBeNull();
          }
        }
        for (const u of users) {
          // 3. the circuit breaker, and 4. the drawdown rule
          seen.pauses += checkNoLoop(log, u);
          if (checkDrawdown(log, u)) seen.halts += 1;
        }
        // 5. actualProfit of every finished trade = independent recomputation to 1e-8
        for (const t of log.ended) {
          seen.trades += 1;
          expect(new Exact(t.actualProfit).minus(cashFlowProfit(t)).abs().lte('1e-8')).toBe(true);
        }
        seen.stopOuts += log.stopOuts;
        seen.outcomes += log.outcomes;
      }),
      { seed: SEED, numRuns: 10_000 },
    );
    // the generated paths really exercise trading, the loss limit, the breaker, stop-outs and the outcomes
    expect(seen.trades).toBeGreaterThan(1000);
    expect(seen.halts).toBeGreaterThan(10);
    expect(seen.pauses).toBeGreaterThan(10);
    expect(seen.stopOuts).toBeGreaterThan(10);
    expect(seen.outcomes).toBeGreaterThan(100);
  }, 180_000);
});
