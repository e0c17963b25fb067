// Property tests over generated market paths (seeded): the engine's limits hold whatever the market and the venues
// do, and every finished trade's profit is exactly what its fills say.
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UserLimits } from '../../../server/engine/trading-core';
import type { TradeState } from '../../../server/engine/trade-state';
import { runHarness, type MarketStep, type OrderBehaviour } from './sync-harness';

const SEED = 20_260_321;
const Exact = Decimal.clone({ precision: 40 });

const userArb = (i: number): fc.Arbitrary<UserLimits> =>
  fc.record({
    userId: fc.constant(`user-${i}`),
    maxExposure: fc.constantFrom('0', '40', '100', '250', '1000', '5000'),
    maxLoss: fc.constantFrom('0', '0.5', '2', '10', '100'),
    minSpread: fc.constantFrom(0, 0.002, 0.004, 0.01),
    takerFee: fc.constantFrom(0.001, 0.00075),
    autoTrade: fc.constant(true),
    halted: fc.constant(false),
  });

const stepArb: fc.Arbitrary<MarketStep> = fc.record({
  symbol: fc.constantFrom('BTC/USDT' as const, 'ETH/USDT' as const),
  mid: fc.integer({ min: -300, max: 300 }).map((bp) => 60_000 * (1 + bp / 10_000)),
  // mostly calm, sometimes dislocated either way
  spread: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: -10, max: 10 }).map((bp) => bp / 10_000) },
    { weight: 2, arbitrary: fc.integer({ min: -200, max: 200 }).map((bp) => bp / 10_000) },
  ),
  dtMs: fc.integer({ min: 50, max: 40_000 }),
});

const scenarioArb = fc.record({
  users: fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => userArb(i)))),
  path: fc.array(stepArb, { minLength: 5, maxLength: 40 }),
  behaviours: fc.array(fc.record({ delay: fc.integer({ min: 0, max: 3 }), fails: fc.boolean() }), { minLength: 1, maxLength: 40 }),
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

describe('engine properties over generated market paths', () => {
  it('holds every limit and computes every profit exactly (10,000 paths)', () => {
    let trades = 0;
    let halts = 0;
    fc.assert(
      fc.property(scenarioArb, ({ users, path, behaviours }) => {
        const log = runHarness(users, path, behaviourOf(behaviours));
        // 1. open notional (in-flight included) never exceeds maxExposure
        expect(log.violations).toEqual([]);
        // 2. no new trade, automatic or manual, once the realised loss reached maxLoss
        for (const u of users) {
          let realised = new Exact(0);
          let stoppedAt: number | null = null;
          const maxLoss = new Exact(u.maxLoss);
          const endedByStep = log.ended.filter((t) => t.userId === u.userId);
          for (const t of endedByStep) {
            realised = realised.plus(t.actualProfit);
            if (stoppedAt === null && realised.isNegative() && realised.negated().gte(maxLoss)) {
              stoppedAt = log.halts.find((h) => h.userId === u.userId)?.step ?? -1;
              expect(stoppedAt).toBeGreaterThanOrEqual(0);
            }
          }
          if (stoppedAt !== null) {
            expect(log.opens.filter((o) => o.userId === u.userId && o.step > stoppedAt)).toEqual([]);
            halts += 1;
          }
        }
        // 3. actualProfit of every finished trade = independent recomputation to 1e-8
        for (const t of log.ended) {
          trades += 1;
          expect(new Exact(t.actualProfit).minus(cashFlowProfit(t)).abs().lte('1e-8')).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 10_000 },
    );
    // the generated paths really exercise trading and the loss limit
    expect(trades).toBeGreaterThan(1000);
    expect(halts).toBeGreaterThan(10);
  }, 120_000);
});
