// The read endpoints through the real app: trades pages and filters, statistics, balances — scoped to the caller.
import { engineStopRecorder } from '../../../server/trading';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SymbolId, TradeStatus } from '../../../contract/domain';
import type { Balances, Pagination, RiskSummary, Stats, Trade } from '../../../contract/entities';
import { drawdownOf, equityCurve } from '../../../contract/figures';
import { PAPER_SEED } from '../../../server/venues/sim/paper-seed';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';
import { insertTrades, type TradeSeed } from './seed';

const PRICES: Record<SymbolId, number> = { 'BTC/USDT': 50_000, 'ETH/USDT': 3_000 };

describe.each(backends)('trade and balance reads on %s', (backend) => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;
  let aliceIds: string[];
  const statuses: TradeStatus[] = ['completed', 'completed', 'failed', 'pending', 'cancelled'];
  const aliceSeeds: TradeSeed[] = Array.from({ length: 45 }, (_, i) => ({
    status: statuses[i % statuses.length],
    symbol: i % 3 === 0 ? 'ETH/USDT' : 'BTC/USDT',
    // completed trades alternate between a win and a loss
    actualProfit: statuses[i % statuses.length] === 'completed' ? (i % 2 === 0 ? '2.5' : '-1') : '0',
  }));

  beforeAll(async () => {
    t = await createTestApp(backend, { build: { priceBook: { mid: (symbol) => PRICES[symbol] ?? null } } });
    alice = await t.createUser();
    bob = await t.createUser();
    aliceIds = await insertTrades(t.db, alice.user._id, aliceSeeds);
    await insertTrades(t.db, bob.user._id, [{ status: 'completed', actualProfit: '100' }]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async <T>(url: string, who: SignedIn) => {
    const res = await t.request('GET', url, { token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T & { success: boolean };
  };

  it('pages the history with current, pages and total, newest first, 20 a page by default', async () => {
    const first = await get<{ trades: Trade[]; pagination: Pagination }>('/api/trades', alice);
    expect(first.success).toBe(true);
    expect(first.pagination).toEqual({ current: 1, pages: 3, total: 45 });
    expect(first.trades.map((x) => x._id)).toEqual(aliceIds.slice(-20).reverse());
    const last = await get<{ trades: Trade[]; pagination: Pagination }>('/api/trades?page=5&limit=10', alice);
    expect(last.pagination).toEqual({ current: 5, pages: 5, total: 45 });
    expect(last.trades).toHaveLength(5);
    const trade = last.trades[0] as Trade;
    expect(typeof trade.totalAmount).toBe('number');
    expect(typeof trade.arbitrageSpread).toBe('number');
    expect(new Date(trade.createdAt).toISOString()).toBe(trade.createdAt);
  });

  it('filters by status and symbol', async () => {
    const count = (status?: TradeStatus, symbol?: SymbolId) =>
      aliceSeeds.filter((s) => (!status || s.status === status) && (!symbol || s.symbol === symbol)).length;
    const cases: [string, TradeStatus | undefined, SymbolId | undefined][] = [
      ['status=completed', 'completed', undefined],
      ['symbol=ETH%2FUSDT', undefined, 'ETH/USDT'],
      ['status=failed&symbol=BTC%2FUSDT', 'failed', 'BTC/USDT'],
    ];
    for (const [query, status, symbol] of cases) {
      const body = await get<{ trades: Trade[]; pagination: Pagination }>(`/api/trades?${query}&limit=100`, alice);
      expect(body.pagination.total).toBe(count(status, symbol));
      expect(body.trades.every((x) => (!status || x.status === status) && (!symbol || x.symbol === symbol))).toBe(true);
    }
  });

  it('rejects bad paging and filters with a clear 400', async () => {
    const cases: [string, RegExp, string][] = [
      ['page=0', /page must be at least 1/, 'page'],
      ['limit=1000', /limit must be at most 100/, 'limit'],
      ['limit=2.5', /limit must be a whole number/, 'limit'],
      ['limit=abc', /^limit must be a number$/, 'limit'],
      ['status=done', /^status must be one of pending, completed, failed, cancelled$/, 'status'],
      ['symbol=FOO%2FUSDT', /^symbol must be a pair such as BTC\/USDT$/, 'symbol'],
    ];
    for (const [query, message, path] of cases) {
      const res = await t.request('GET', `/api/trades?${query}`, { token: alice.token });
      expect(res.statusCode, query).toBe(400);
      const body = res.json() as { success: boolean; message: string; errors: { msg: string; path?: string }[] };
      expect(body.success).toBe(false);
      expect(body.message).toMatch(message);
      expect(body.errors[0]?.path).toBe(path);
    }
  });

  it('shows each user only their own trades and figures', async () => {
    const theirs = await get<{ trades: Trade[]; pagination: Pagination }>('/api/trades?limit=100', bob);
    expect(theirs.pagination.total).toBe(1);
    expect(theirs.trades.every((x) => x.userId === bob.user._id)).toBe(true);
    const admin = await get<{ trades: Trade[]; pagination: Pagination }>('/api/trades', t.admin);
    expect(admin.pagination.total).toBe(0);
    const stats = await get<{ stats: Stats }>('/api/trades/stats/summary', bob);
    expect(stats.stats.netProfit).toBe(100);
  });

  it('sums the statistics of the seeded trades', async () => {
    const completed = aliceSeeds.filter((s) => s.status === 'completed');
    const wins = completed.filter((s) => Number(s.actualProfit) > 0);
    const body = await get<{ stats: Stats }>('/api/trades/stats/summary', alice);
    expect(body.stats).toMatchObject({
      totalTrades: 45,
      // "Successful" means won, the win rate's numerator (issue 20, finding 3): never completed losses.
      successfulTrades: wins.length,
      failedTrades: aliceSeeds.filter((s) => s.status === 'failed').length,
      totalProfit: wins.length * 2.5,
      netProfit: wins.length * 2.5 - (completed.length - wins.length),
      winRate: (wins.length / completed.length) * 100,
    });
  });

  it('hands a new user the paper balances in the simulated market and values them at mid prices', async () => {
    const body = await get<{ balance: Balances }>('/api/balances', alice);
    const { balance } = body;
    for (const venue of ['binance', 'deriv'] as const) {
      expect(balance[venue]).toEqual({
        USDT: Number(PAPER_SEED[venue].USDT),
        BTC: Number(PAPER_SEED[venue].BTC),
        ETH: Number(PAPER_SEED[venue].ETH),
      });
    }
    const held = (c: 'USDT' | 'BTC' | 'ETH') => Number(PAPER_SEED.binance[c]) + Number(PAPER_SEED.deriv[c]);
    const value = held('USDT') + held('BTC') * PRICES['BTC/USDT']! + held('ETH') * PRICES['ETH/USDT']!;
    expect(balance.totalValue).toBeCloseTo(value, 8);
    expect(balance.totalTrades).toBe(45);
    expect(Object.keys(balance).sort()).toEqual(
      [
        'binance',
        'decidedTrades',
        'deriv',
        'failedTrades',
        'netProfit',
        'successfulTrades',
        'totalTrades',
        'totalValue',
        'updatedAt',
        'winRate',
      ].sort(),
    );
    expect(new Date(balance.updatedAt).toISOString()).toBe(balance.updatedAt);

    const portfolio = await get<{ stats: Stats }>('/api/balances/stats/portfolio', alice);
    const summary = await get<{ stats: Stats }>('/api/trades/stats/summary', alice);
    expect(portfolio.stats).toEqual(summary.stats);
    expect(portfolio.stats.totalValue).toBeCloseTo(value, 8);
  });

  it("answers one of the caller's trades with its legs, and 'not found' for anyone else's", async () => {
    const id = aliceIds[3] as string;
    const { trade } = await get<{ trade: Trade }>(`/api/trades/${id}`, alice);
    expect(trade._id).toBe(id);
    expect(Array.isArray(trade.legs)).toBe(true);
    const other = await t.request('GET', `/api/trades/${id}`, { token: bob.token });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ success: false, message: 'Trade not found' });
    const bad = await t.request('GET', '/api/trades/not-an-id', { token: alice.token });
    expect(bad.statusCode).toBe(400);
  });

  it('reads the risk figures as the engine judges them: drawdown over the realised window, open exposure, state', async () => {
    const { risk } = await get<{ risk: RiskSummary }>('/api/trades/stats/risk', alice);
    // Never enabled: the window is every finished trade, in the order they closed (the seeds close in order).
    const curve = equityCurve(
      aliceSeeds.map((s, i) => ({
        status: s.status ?? 'completed',
        actualProfit: Number(s.actualProfit ?? 0),
        closedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000 + 500).toISOString(),
        updatedAt: '',
      })),
    );
    expect(risk.realised).toBeCloseTo(curve.at(-1)?.equity ?? 0, 8);
    expect(risk.drawdown).toBeCloseTo(Math.max(0, drawdownOf(curve)), 8);
    expect(risk.exposure).toBe(aliceSeeds.filter((s) => s.status === 'pending').length * 100);
    expect(risk).toMatchObject({ state: 'off', reason: null, maxLoss: 100, maxExposure: 1000, windowStart: null });

    // The engine's own stops, recorded as the engine records them (server/trading/engine-stops.ts).
    const recordStop = engineStopRecorder(t.db);
    await recordStop(bob.user._id, 'max-loss', 'Max loss reached: 120 USDT below its peak');
    const halted = (await get<{ risk: RiskSummary }>('/api/trades/stats/risk', bob)).risk;
    expect(halted).toMatchObject({ state: 'halted', reason: 'Max loss reached: 120 USDT below its peak', exposure: 0 });
    await recordStop(bob.user._id, 'paused', 'Binance refused the order three times');
    expect((await get<{ risk: RiskSummary }>('/api/trades/stats/risk', bob)).risk.state).toBe('paused');
  });

  it('answers 401 without a token', async () => {
    for (const url of ['/api/trades', '/api/trades/stats/summary', '/api/balances', '/api/balances/stats/portfolio']) {
      const res = await t.request('GET', url);
      expect(res.statusCode, url).toBe(401);
      expect((res.json() as { success: boolean }).success).toBe(false);
    }
  });
});
