// POST /api/backtest over history recorded from the simulated market: the answer is the replay of exactly those
// samples (run in a worker thread), it says which resolutions it replayed, and every bad range or limit is a clear 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKTEST_EQUITY_POINTS, type BacktestResponse } from '../../../contract/backtest';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../../../contract/pairs';
import type { SpreadSample } from '../../../contract/spreads';
import { insertSpreadBooks } from '../../../server/db/repositories/spread-books';
import { insertSpreadSamples, rollUpSpreadSamples } from '../../../server/db/repositories/spread-history';
import { runBacktest } from '../../../server/engine/replay/backtest';
import { toColumns } from '../../../server/engine/replay/history';
import { runSim } from '../../../server/venues/sim/path';
import { DEMO_PARAMS } from '../../../server/venues/sim/profiles';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
const NOW = Math.floor(Date.now() / SECOND) * SECOND;

/** One sample a second of the demo market (lively enough for trades in an hour), ending at `end`. */
function recordedHour(seed: number, end: number): SpreadSample[] {
  const samples: SpreadSample[] = [];
  const stepsPerSecond = SECOND / DEMO_PARAMS.tickMs;
  let step = 0;
  runSim(seed, 3600 * stepsPerSecond, DEMO_PARAMS, (tick) => {
    step += 1;
    if (step % stepsPerSecond !== 0) return;
    const t = end - HOUR + (step / stepsPerSecond - 1) * SECOND;
    for (const symbol of SYMBOLS) {
      const { binance, deriv } = tick.symbols[symbol]!.quotes;
      const b = (binance.bid + binance.ask) / 2;
      const d = (deriv.bid + deriv.ask) / 2;
      const spread = (d - b) / b;
      samples.push({ symbol, t, binance: b, deriv: d, spread, spreadLow: spread, spreadHigh: spread });
    }
  });
  return samples;
}

describe.each(backends)('backtest API on %s', (backend) => {
  let t: TestApp;
  let user: SignedIn;
  const limits = { minSpread: 0.002, maxExposure: 1000, maxLoss: 100 };
  const body = (over: Record<string, unknown> = {}) => ({
    symbol: 'both',
    from: new Date(NOW - HOUR).toISOString(),
    to: new Date(NOW).toISOString(),
    ...limits,
    ...over,
  });
  const post = (payload: unknown, token: string | null = user.token) =>
    t.request('POST', '/api/backtest', { token: token ?? undefined, body: payload });

  beforeAll(async () => {
    t = await createTestApp(backend);
    user = await t.createUser();
    // The last hour at one second, and an hour three days ago that the roll-up turned into minutes.
    await insertSpreadSamples(t.db, [
      ...recordedHour(3, NOW),
      ...recordedHour(4, NOW - 3 * DAY),
      ...recordedHour(5, NOW - 2 * DAY),
    ]);
    await rollUpSpreadSamples(t.db, new Date(NOW - DAY));
    // Two days ago the engine's books were kept for BTC from half past on (as from an upgrade at that moment).
    await insertSpreadBooks(
      t.db,
      recordedHour(5, NOW - 2 * DAY)
        .filter((x) => x.symbol === 'BTC/USDT' && x.t >= NOW - 2 * DAY - HOUR / 2)
        .map((x) => ({
          symbol: x.symbol,
          t: x.t,
          seq: 0,
          binanceBid: x.binance - 0.01,
          binanceAsk: x.binance + 0.01,
          binanceTs: x.t,
          derivBid: x.deriv * 0.9998,
          derivAsk: x.deriv * 1.0002,
          derivTs: x.t - 300,
          dense: false,
        })),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the replay of the recorded samples, computed off the request thread', async () => {
    const res = await post(body());
    expect(res.statusCode, res.body).toBe(200);
    const { backtest } = res.json() as BacktestResponse;
    expect(backtest.replayed).toEqual({
      source: 'mids',
      bookTicks: 0,
      secondSamples: 7200,
      minuteSamples: 0,
      symbols: [...SYMBOLS],
    });
    expect(backtest.figures.trades).toBeGreaterThan(3);
    expect(backtest.figures.exposureUsed).toBeGreaterThan(0);
    expect(backtest.figures.exposureUsed).toBeLessThanOrEqual(limits.maxExposure);
    expect(backtest.equity.length).toBeLessThanOrEqual(BACKTEST_EQUITY_POINTS);
    expect(backtest.equity.at(-1)?.equity).toBeCloseTo(backtest.figures.netProfit, 6);
    // The samples as generated, replayed here on this thread, give the same answer: the history read back from the
    // database is what was recorded, and the worker ran the replay, nothing else.
    const generated = recordedHour(3, NOW).map((x) => ({
      t: x.t,
      symbol: x.symbol,
      binance: x.binance,
      deriv: x.deriv,
      minute: false,
    }));
    const { tradeMaxHoldMs: maxHoldMs, quoteMaxAgeMs, quoteMaxSkewMs } = t.app.config;
    const direct = runBacktest({
      columns: toColumns(generated),
      params: { maxHoldMs, quoteMaxAgeMs, quoteMaxSkewMs },
      limits,
      from: NOW - HOUR,
      to: NOW,
    });
    expect(backtest.figures).toEqual(direct.figures);
    expect(backtest.equity).toEqual(direct.equity);
  });

  it('replays one symbol alone, and says when it had only minute averages', async () => {
    const btc = (await post(body({ symbol: 'BTC/USDT' }))).json() as BacktestResponse;
    expect(btc.backtest.replayed).toEqual({
      source: 'mids',
      bookTicks: 0,
      secondSamples: 3600,
      minuteSamples: 0,
      symbols: ['BTC/USDT'],
    });
    const old = await post(
      body({ from: new Date(NOW - 3 * DAY - HOUR).toISOString(), to: new Date(NOW - 3 * DAY).toISOString() }),
    );
    expect(old.statusCode, old.body).toBe(200);
    expect((old.json() as BacktestResponse).backtest.replayed).toMatchObject({ secondSamples: 0, minuteSamples: 120 });
  });

  it("replays the engine's books where they were kept, and mids only before them", async () => {
    const range = { from: new Date(NOW - 2 * DAY - HOUR).toISOString(), to: new Date(NOW - 2 * DAY).toISOString() };
    const both = await post(body(range));
    expect(both.statusCode, both.body).toBe(200);
    // BTC: minutes of its first half hour, then 1,800 books; ETH: its hour of minutes.
    expect((both.json() as BacktestResponse).backtest.replayed).toEqual({
      source: 'books-and-mids',
      bookTicks: 1800,
      secondSamples: 0,
      minuteSamples: 30 + 60,
      symbols: [...SYMBOLS],
    });
    const late = await post(
      body({ symbol: 'BTC/USDT', from: new Date(NOW - 2 * DAY - HOUR / 2).toISOString(), to: range.to }),
    );
    expect((late.json() as BacktestResponse).backtest.replayed).toEqual({
      source: 'books',
      bookTicks: 1800,
      secondSamples: 0,
      minuteSamples: 0,
      symbols: ['BTC/USDT'],
    });
  });

  it('stops at the max loss as the engine would, and tells when', async () => {
    const res = await post(body({ minSpread: 0, maxLoss: 0.5 }));
    expect(res.statusCode, res.body).toBe(200);
    const { backtest } = res.json() as BacktestResponse;
    expect(backtest.stopped?.reason).toMatch(/^Max loss reached/);
    expect(backtest.figures.maxDrawdown).toBeGreaterThanOrEqual(0.5);
  });

  it.each([
    [{ from: new Date(NOW - 8 * DAY).toISOString() }, 'A backtest covers at most 7 days; pick a shorter range'],
    [
      { from: new Date(NOW).toISOString(), to: new Date(NOW - HOUR).toISOString() },
      'The start of the range must be before its end',
    ],
    [{ from: 'yesterday' }, 'From must be a date and time, e.g. 2026-01-01T00:00:00Z'],
    [{ symbol: 'FOO/USDT' }, 'Pick a pair such as BTC/USDT, or all pairs'],
    [{ symbol: 'BTC/USDT\u0000' }, 'Symbol must not contain control characters'],
    // A pair the product knows that this server does not trade.
    [{ symbol: 'DOGE/USDT' }, 'This server does not trade DOGE/USDT; pick one of BTC/USDT, ETH/USDT'],
    [{ minSpread: 0.5 }, 'Min spread must be at most 10%'],
    [{ maxExposure: -1 }, 'Max exposure must be 0 or more'],
    [{ maxLoss: '100' }, 'Max loss must be a number'],
    [{ maxLoss: undefined }, 'Max loss must be a number'],
    [{ tradingEnabled: true }, 'tradingEnabled'],
    [
      { from: new Date(NOW + HOUR).toISOString(), to: new Date(NOW + 2 * HOUR).toISOString() },
      'The range must start in the past',
    ],
    [
      { from: new Date(NOW - 10 * DAY).toISOString(), to: new Date(NOW - 9 * DAY).toISOString() },
      'No prices were recorded in this range yet; pick a range the server was running in',
    ],
  ])('refuses %o with a clear 400', async (over, message) => {
    const res = await post(body(over));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain(message);
  });

  it('asks for a sign-in', async () => {
    expect((await post(body(), null)).statusCode).toBe(401);
  });
});
