// A backtest of a window the engine traded, with the same limits, makes the engine's trades: the live engine trades
// the simulated market (demo profile, fixed seed) while the server's recorders keep what it saw — the books it
// decided on and the one-second mids — in the database; POST /api/backtest then replays that window. Same trade
// count, P&L within 2 %. (Before the books were kept, the mids rebuilt with default spreads were replayed: the issue
// saw 3 trades and −5.41 USDT where the engine had made 8 and +60.44; bench/backtest-vs-engine.ts measures both.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BacktestResponse } from '../../../contract/backtest';
import { costFloor } from '../../../contract/costs';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../../../contract/pairs';
import { startBookRecorder } from '../../../server/spread-history/book-recorder';
import { pricesOf, startSpreadRecorder } from '../../../server/spread-history/recorder';
import { DEMO_PARAMS } from '../../../server/venues/sim/profiles';
import { runEngineOnSim, type SimEngineRun } from '../../../tools/doubles/sim-engine-run';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';

const MINUTES = 30;
const silent = { warn: () => undefined };

describe.each(backends)('backtest of a window the engine traded, on %s', (backend) => {
  let t: TestApp;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(backend);
    user = await t.createUser();
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    { seed: 11, limits: { minSpread: 0.002, maxExposure: 1000, maxLoss: 100 } },
    { seed: 12, limits: { minSpread: 0.006, maxExposure: 3000, maxLoss: 50 } },
  ])('makes the same trades, P&L within 2 % (seed $seed)', async ({ seed, limits }) => {
    // A window in the recent past: the recorders' maintenance keeps it whole (thinning starts after a day).
    const start = Math.floor((Date.now() - 2 * 3600_000 - seed * 3600_000) / 1000) * 1000;
    const live: SimEngineRun = await runEngineOnSim({
      seed,
      params: DEMO_PARAMS,
      start,
      minutes: MINUTES,
      limits,
      attach: (engine) => {
        const recorders = [
          startBookRecorder({
            db: t.db,
            ticks$: engine.ticks$,
            levels: engine.decisions,
            floor: costFloor(engine.params, engine.params.defaultTakerFee),
            isLeader: () => true,
            retentionDays: 30,
            logger: silent,
          }),
          startSpreadRecorder({
            db: t.db,
            prices$: pricesOf(engine.events$),
            isLeader: () => true,
            retentionDays: 30,
            logger: silent,
          }),
        ];
        return async () => {
          for (const r of recorders) await r.stop();
        };
      },
    });
    expect(live.trades.length).toBeGreaterThan(3);

    const res = await t.request('POST', '/api/backtest', {
      token: user.token,
      body: {
        symbol: 'both',
        from: new Date(start).toISOString(),
        to: new Date(start + MINUTES * 60_000 + 1000).toISOString(),
        ...limits,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { backtest } = res.json() as BacktestResponse;
    expect(backtest.replayed).toMatchObject({ source: 'books', secondSamples: 0, minuteSamples: 0 });
    expect(backtest.replayed.symbols).toEqual([...SYMBOLS]);
    expect(backtest.figures.trades).toBe(live.trades.length);
    expect(Math.abs(backtest.figures.netProfit - live.netProfit)).toBeLessThanOrEqual(0.02 * Math.abs(live.netProfit));
    expect(backtest.openAtEnd).toBe(live.open);
    expect(backtest.stopped?.reason ?? null).toBe(live.stops[0]?.reason ?? null);
  });
});
