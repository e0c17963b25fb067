// GET /api/snapshot: the first paint's figures in one answer, each equal to what its own endpoint answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SymbolId, TradeStatus } from '../../../contract/domain';
import type { SnapshotResponse } from '../../../contract/api';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';
import { createEngineApp, type EngineApp } from './engine-app';
import { insertTrades, type TradeSeed } from './seed';

const PRICES: Record<SymbolId, number> = { 'BTC/USDT': 50_000, 'ETH/USDT': 3_000 };
const statuses: TradeStatus[] = ['completed', 'failed', 'pending', 'cancelled', 'completed'];
const seeds: TradeSeed[] = Array.from({ length: 27 }, (_, i) => ({
  status: statuses[i % statuses.length],
  symbol: i % 2 ? 'ETH/USDT' : 'BTC/USDT',
  actualProfit: statuses[i % statuses.length] === 'completed' ? (i % 3 ? '1.5' : '-0.75') : '0',
}));

describe.each(backends)('GET /api/snapshot on %s', (backend) => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(backend, { build: { priceBook: { mid: (symbol) => PRICES[symbol] ?? null } } });
    alice = await t.createUser();
    bob = await t.createUser();
    await insertTrades(t.db, alice.user._id, seeds);
    await insertTrades(t.db, bob.user._id, [{ status: 'completed', actualProfit: '40' }]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const body = async <T>(url: string, who: SignedIn): Promise<T> => {
    const res = await t.request('GET', url, { token: who.token });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  };

  it('answers 401 without a token or with a bad one', async () => {
    expect((await t.request('GET', '/api/snapshot')).statusCode).toBe(401);
    expect((await t.request('GET', '/api/snapshot', { token: 'not-a-token' })).statusCode).toBe(401);
  });

  it("holds the caller's figures exactly as the separate endpoints answer them", async () => {
    // Balances first: in the simulated market the first read of either hands out the paper seed.
    const snap = await body<SnapshotResponse>('/api/snapshot', alice);
    const [profile, meta, balances, summary, portfolio, risk, page, twoFactor] = await Promise.all([
      body<{ user: unknown }>('/api/auth/profile', alice),
      body<{ market: unknown; halt: unknown }>('/api/meta', alice),
      body<{ balance: { updatedAt: string } }>('/api/balances', alice),
      body<{ stats: unknown }>('/api/trades/stats/summary', alice),
      body<{ stats: unknown }>('/api/balances/stats/portfolio', alice),
      body<{ risk: unknown }>('/api/trades/stats/risk', alice),
      body<{ trades: unknown[]; pagination: unknown }>('/api/trades?page=1&limit=20', alice),
      body<{ twoFactor: unknown }>('/api/auth/2fa', alice),
    ]);
    expect(snap.success).toBe(true);
    expect(snap.user).toEqual(profile.user);
    expect(snap.market).toEqual(meta.market);
    expect(snap.halt).toEqual(meta.halt);
    expect(snap.balance).toEqual(balances.balance);
    expect(snap.stats).toEqual(summary.stats);
    expect(snap.stats).toEqual(portfolio.stats);
    expect(snap.risk).toEqual(risk.risk);
    expect(snap.recent).toEqual({ trades: page.trades, pagination: page.pagination });
    expect(snap.recent.trades).toHaveLength(20);
    expect(snap.twoFactor).toEqual(twoFactor.twoFactor);
    // The figures are the caller's own: 27 trades, not Bob's one.
    expect(snap.stats.totalTrades).toBe(27);
    expect(snap.recent.trades.every((x) => x.userId === alice.user._id)).toBe(true);
  });

  it('carries only the declared fields (the user record has no password hash or secrets)', async () => {
    const snap = await body<Record<string, unknown>>('/api/snapshot', bob);
    expect(Object.keys(snap).sort()).toEqual([
      'balance',
      'halt',
      'market',
      'outcomes',
      'prices',
      'recent',
      'risk',
      'stats',
      'success',
      'twoFactor',
      'user',
      'venues',
    ]);
    expect(JSON.stringify(snap.user)).not.toMatch(/password|hash/i);
  });

  it('is documented in the OpenAPI document with its response schema', async () => {
    const doc = (await t.request('GET', '/api/docs')).json() as {
      paths: Record<
        string,
        { get?: { responses: Record<string, { content: Record<string, { schema: { properties: object } }> }> } }
      >;
    };
    const schema = doc.paths['/api/snapshot']?.get?.responses['200']?.content['application/json']?.schema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(
      expect.arrayContaining(['user', 'prices', 'balance', 'stats', 'recent', 'risk']),
    );
  });

  it('has no prices on an instance without an engine (GET /exchanges/prices answers 503 there)', async () => {
    const snap = await body<SnapshotResponse>('/api/snapshot', bob);
    expect((await t.request('GET', '/api/exchanges/prices', { token: bob.token })).statusCode).toBe(503);
    expect(snap.prices).toBeNull();
    expect(snap.venues).toBeNull();
  });
});

describe.each(backends)('GET /api/snapshot with the engine on %s', (backend) => {
  let e: EngineApp;
  beforeAll(async () => {
    e = await createEngineApp(backend);
  });
  afterAll(async () => {
    await e?.close();
  });

  it("has the engine's prices, keyed by symbol as GET /exchanges/prices answers them", async () => {
    const user = await e.createUser();
    const snapRes = await e.request('GET', '/api/snapshot', { token: user.token });
    const pricesRes = await e.request('GET', '/api/exchanges/prices', { token: user.token });
    expect(snapRes.statusCode, snapRes.body).toBe(200);
    const snap = snapRes.json() as SnapshotResponse;
    const prices = (pricesRes.json() as { prices: Record<string, unknown> }).prices;
    expect(snap.prices).not.toBeNull();
    expect(Object.keys(snap.prices ?? {}).sort()).toEqual(Object.keys(prices).sort());
  });

  it("has each venue's health: on the simulated market, said as simulated with nothing measured", async () => {
    const user = await e.createUser();
    const snap = (await e.request('GET', '/api/snapshot', { token: user.token })).json() as SnapshotResponse;
    expect(snap.venues?.map((v) => [v.venue, v.state, v.latencyMs])).toEqual([
      ['binance', 'simulated', null],
      ['deriv', 'simulated', null],
    ]);
  });
});
