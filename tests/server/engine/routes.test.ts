// Trading routes through the real app on a real database, with the engine over scripted venues, the database paper
// book, trade store and user directory.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import { DbPaperBook } from '../../../server/db/repositories/paper-book';
import { paperOrders, trades } from '../../../server/db/schema/trades';
import { users } from '../../../server/db/schema/users';
import type { EngineEvent } from '../../../server/engine/events';
import { VenueError, type LegFill } from '../../../server/venues/types';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';
import { createDbEngine, type DbEngine } from './db-engine';

describe.each(backends)('trading routes on %s', (backend) => {
  let d: DbEngine;
  let t: TestApp;
  let apiOnly: TestApp;
  let engine: DbEngine['engine'];
  let alice: SignedIn;
  let bob: SignedIn;
  let events: EngineEvent[];
  const until = (what: string, check: () => Promise<boolean>) => d.until(what, check);
  const tradeRow = async (id: string) => (await t.db.select().from(trades).where(eq(trades.id, id)))[0];

  beforeAll(async () => {
    d = await createDbEngine(backend);
    ({ t, engine, events } = d);
    apiOnly = await createTestApp('pglite');
    alice = await t.createUser();
    bob = await t.createUser();
  });

  afterAll(async () => {
    await d?.close();
    await apiOnly?.close();
  });

  it('answers prices with profitable judged against the caller minSpread, filtered by symbol', async () => {
    d.quote('BTC/USDT', 60_000, 10 / 60_000);
    const res = await t.request('GET', '/api/exchanges/prices', { token: alice.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.prices['BTC/USDT']).toMatchObject({
      symbol: 'BTC/USDT',
      binance: 60_000,
      deriv: 60_010,
      arbitrage: { profitable: false },
    });
    expect(body.prices['BTC/USDT'].spread).toBeCloseTo(10 / 60_000, 10);
    await t.db.update(users).set({ minSpread: '0.0001' }).where(eq(users.id, alice.user._id));
    const filtered = (await t.request('GET', '/api/exchanges/prices?symbol=BTC/USDT', { token: alice.token })).json();
    expect(Object.keys(filtered.prices)).toEqual(['BTC/USDT']);
    expect(filtered.prices['BTC/USDT'].arbitrage.profitable).toBe(true);
    await t.db.update(users).set({ minSpread: '0.002' }).where(eq(users.id, alice.user._id));
    const bad = await t.request('GET', '/api/exchanges/prices?symbol=DOGE', { token: alice.token });
    expect(bad.statusCode).toBe(400);
    expect((await t.request('GET', '/api/exchanges/prices')).statusCode).toBe(401);
  });

  it('says clearly when the instance is API-only', async () => {
    const res = await apiOnly.request('GET', '/api/exchanges/prices', { token: apiOnly.admin.token });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, message: expect.stringMatching(/API-only/) });
    const create = await apiOnly.request('POST', '/api/trades', {
      token: apiOnly.admin.token,
      body: { symbol: 'BTC/USDT', totalAmount: 50 },
    });
    expect(create.statusCode).toBe(503);
  });

  it('tests a connection in the simulated market and syncs paper balances', async () => {
    const res = await t.request('POST', '/api/exchanges/test-connection', {
      token: alice.token,
      body: { exchange: 'deriv' },
    });
    expect(res.json()).toEqual({
      success: true,
      exchange: 'deriv',
      message:
        'Simulated market: no connection to Deriv is made and no keys are needed. Checked: no Deriv token saved, which is fine here.',
    });
    // Keys in no key's shape are refused with the form's field message (issue 20, finding 4), on the simulated market too.
    const bad = await t.request('PUT', `/api/users/${alice.user._id}/api-keys`, {
      token: alice.token,
      body: { binanceApiKey: 'abc', binanceSecretKey: 'def' },
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain(
      "The Binance API key is too short: Binance's keys are 64 letters and digits",
    );
    expect(
      (await t.request('POST', '/api/exchanges/test-connection', { token: alice.token, body: { exchange: 'kraken' } }))
        .statusCode,
    ).toBe(400);
    const sync = await t.request('POST', '/api/exchanges/sync', { token: alice.token });
    expect(sync.statusCode).toBe(200);
    expect(sync.json()).toMatchObject({
      success: true,
      balance: { binance: { USDT: 10_000, BTC: 0.1, ETH: 2 }, deriv: { USDT: 10_000 } },
    });
  });

  it('adds a user to trading, trades a dislocation through the database, and removes the user', async () => {
    const add = await t.request('POST', '/api/exchanges/trading/add-user', { token: alice.token });
    expect(add.json()).toMatchObject({ success: true, tradingEnabled: true });
    d.quote('BTC/USDT', 60_000, 0.01);
    const isNew = (e: EngineEvent) => e.type === 'new_trade' && e.userId === alice.user._id;
    await until('new trade', async () => events.some(isNew));
    const created = events.find(isNew);
    const id = (created as { trade: Trade }).trade._id;
    await until('legs open', async () => (await tradeRow(id))?.legs.every((l) => l.status === 'open') ?? false);
    d.quote('BTC/USDT', 60_000, 0);
    await until('completed', async () => (await tradeRow(id))?.status === 'completed');
    const row = await tradeRow(id);
    expect(row?.reason).toBe('converged');
    // every leg's client order id is in the paper book exactly once, opening and closing
    const ids = row?.legs.flatMap((l) => [l.clientOrderId, `${l.clientOrderId}-c`]) ?? [];
    const orders = await t.db.select().from(paperOrders).where(eq(paperOrders.userId, alice.user._id));
    expect(orders.map((o) => o.clientOrderId).sort()).toEqual(ids.sort());
    const list = (await t.request('GET', '/api/trades', { token: alice.token })).json();
    expect(list.trades[0]).toMatchObject({ _id: id, status: 'completed', reason: 'converged' });
    const remove = await t.request('POST', '/api/exchanges/trading/remove-user', { token: alice.token });
    expect(remove.json()).toMatchObject({ success: true, tradingEnabled: false });
    const [u] = await t.db.select({ on: users.tradingEnabled }).from(users).where(eq(users.id, alice.user._id));
    expect(u?.on).toBe(false);
    d.quote('BTC/USDT', 60_000, 0.01);
    await engine.idle();
    expect(events.filter((e) => e.type === 'new_trade' && e.userId === alice.user._id)).toHaveLength(1);
    d.quote('BTC/USDT', 60_000, 0);
  });

  it('creates a manual trade within the limits and refuses what breaks them', async () => {
    const bad = await t.request('POST', '/api/trades', {
      token: bob.token,
      body: { symbol: 'ETH/USDT', totalAmount: -5 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Amount must be more than 0');
    d.quote('ETH/USDT', 3_000, 0);
    const tooBig = await t.request('POST', '/api/trades', {
      token: bob.token,
      body: { symbol: 'ETH/USDT', totalAmount: 5000 },
    });
    expect(tooBig.statusCode).toBe(409);
    expect(tooBig.json().message).toMatch(/max exposure of 1000 USDT/);
    const res = await t.request('POST', '/api/trades', {
      token: bob.token,
      body: { symbol: 'ETH/USDT', totalAmount: 120 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      trade: { status: 'pending', origin: 'manual', totalAmount: 120, symbol: 'ETH/USDT' },
    });
    // The quotes the decision was made on are kept with the trade, for its detail (each fill's slippage).
    const detail = await t.request('GET', `/api/trades/${res.json().trade._id}`, { token: bob.token });
    expect(detail.statusCode).toBe(200);
    const decision = detail.json().trade.decision;
    for (const venue of ['binance', 'deriv'] as const) {
      expect(decision[venue].bid).toBeGreaterThan(0);
      expect(decision[venue].ask).toBeGreaterThanOrEqual(decision[venue].bid);
    }
    const second = await t.request('POST', '/api/trades', {
      token: bob.token,
      body: { symbol: 'ETH/USDT', totalAmount: 20 },
    });
    expect(second.statusCode).toBe(409);
  });

  it('closes only the caller own open trade, asked for with status cancelled; it ends closed by you', async () => {
    const list = (await t.request('GET', '/api/trades?status=pending', { token: bob.token })).json();
    const trade = list.trades[0] as Trade;
    await until('legs open', async () => (await tradeRow(trade._id))?.legs.every((l) => l.status === 'open') ?? false);
    const other = await t.request('PUT', `/api/trades/${trade._id}/status`, {
      token: alice.token,
      body: { status: 'cancelled' },
    });
    expect(other.statusCode).toBe(404);
    const wrong = await t.request('PUT', `/api/trades/${trade._id}/status`, {
      token: bob.token,
      body: { status: 'completed', actualProfit: 1e6 },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Only an open trade can be cancelled; other statuses are set by the engine');
    const unknown = await t.request('PUT', `/api/trades/00000000-0000-4000-8000-000000000000/status`, {
      token: bob.token,
      body: { status: 'cancelled' },
    });
    expect(unknown.statusCode).toBe(404);
    const ok = await t.request('PUT', `/api/trades/${trade._id}/status`, {
      token: bob.token,
      body: { status: 'cancelled' },
    });
    expect(ok.statusCode).toBe(200);
    await until('closed', async () => (await tradeRow(trade._id))?.status === 'completed');
    const row = await tradeRow(trade._id);
    expect(row?.reason).toBe('closed by you');
    expect(row?.legs.every((l) => l.status === 'closed')).toBe(true);
    const again = await t.request('PUT', `/api/trades/${trade._id}/status`, {
      token: bob.token,
      body: { status: 'cancelled' },
    });
    expect(again.statusCode).toBe(400);
  });

  it('keeps the paper book idempotent and never lets a balance go below zero', async () => {
    const book = new DbPaperBook(t.db);
    const fill: LegFill = {
      clientOrderId: 'X1-b',
      venueOrderId: 'p:X1-b',
      price: '100',
      quantity: '1',
      fee: '0.1',
      at: Date.now(),
    };
    const first = await book.recordFill(bob.user._id, 'binance', 'ETH/USDT', fill, { USDT: '-100.1', ETH: '1' });
    const retry = await book.recordFill(
      bob.user._id,
      'binance',
      'ETH/USDT',
      { ...fill, price: '999' },
      { USDT: '-999', ETH: '1' },
    );
    expect(retry.price).toBe(first.price);
    const rows = await t.db
      .select()
      .from(paperOrders)
      .where(and(eq(paperOrders.venue, 'binance'), eq(paperOrders.clientOrderId, 'X1-b')));
    expect(rows).toHaveLength(1);
    const before = await book.balances(bob.user._id, 'binance');
    const tooMuch = book.recordFill(
      bob.user._id,
      'binance',
      'ETH/USDT',
      { ...fill, clientOrderId: 'X2-b' },
      { USDT: '-1000000' },
    );
    await expect(tooMuch).rejects.toBeInstanceOf(VenueError);
    await expect(tooMuch).rejects.toMatchObject({ kind: 'insufficient-balance' });
    expect(await book.balances(bob.user._id, 'binance')).toEqual(before);
    expect(await book.findOrder(bob.user._id, 'binance', 'X2-b')).toBeNull();
  });

  it('records the fills of many accounts arriving together each on its own terms', async () => {
    const book = new DbPaperBook(t.db);
    const carol = await t.createUser();
    const fill = (clientOrderId: string): LegFill => ({
      clientOrderId,
      venueOrderId: `p:${clientOrderId}`,
      price: '100',
      quantity: '1',
      fee: '0.1',
      at: Date.now(),
    });
    const before = await book.balances(carol.user._id, 'binance');
    // One turn: alice's and both of carol's legs are funded, bob's is not, and carol reuses alice's id on Deriv only.
    const [a, b, cBinance, cDeriv] = await Promise.allSettled([
      book.recordFill(alice.user._id, 'binance', 'ETH/USDT', fill('Y1-b'), { USDT: '-100.1', ETH: '1' }),
      book.recordFill(bob.user._id, 'binance', 'ETH/USDT', fill('Y2-b'), { USDT: '-1000000' }),
      book.recordFill(carol.user._id, 'binance', 'ETH/USDT', fill('Y3-b'), { USDT: '-100.1', ETH: '1' }),
      book.recordFill(carol.user._id, 'deriv', 'ETH/USDT', fill('Y1-b'), { USDT: '-5' }),
    ]);
    expect(a).toMatchObject({ status: 'fulfilled', value: { clientOrderId: 'Y1-b', price: '100' } });
    expect(b).toMatchObject({ status: 'rejected', reason: { kind: 'insufficient-balance' } });
    expect(cBinance.status).toBe('fulfilled');
    expect(cDeriv.status).toBe('fulfilled');
    expect(await book.findOrder(bob.user._id, 'binance', 'Y2-b')).toBeNull();
    const after = await book.balances(carol.user._id, 'binance');
    expect(Number(after.USDT)).toBeCloseTo(Number(before.USDT) - 100.1, 8);
    expect(Number(after.ETH)).toBeCloseTo(Number(before.ETH) + 1, 8);
    // What the book keeps for the next pre-trade check is what the database holds.
    const fresh = new DbPaperBook(t.db);
    for (const venue of ['binance', 'deriv'] as const)
      expect(await book.balances(carol.user._id, venue)).toEqual(await fresh.balances(carol.user._id, venue));
    // Alice's id on Binance belongs to her: carol cannot take it over there.
    const taken = book.recordFill(carol.user._id, 'binance', 'ETH/USDT', fill('Y1-b'), { USDT: '-1' });
    await expect(taken).rejects.toMatchObject({ kind: 'rejected' });
  });
});

describe('trading routes in live mode without an engine', () => {
  let live: TestApp;
  beforeAll(async () => {
    live = await createTestApp('pglite', { env: { MARKET: 'live' } });
  });
  afterAll(async () => {
    await live?.close();
  });

  it('refuses to enable trading until the venue keys are saved', async () => {
    const u = await live.createUser();
    const res = await live.request('POST', '/api/exchanges/trading/add-user', { token: u.token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      message: 'Save your Binance API key and secret and your Deriv token before enabling trading',
    });
    const keys = await live.request('PUT', `/api/users/${u.user._id}/api-keys`, {
      token: u.token,
      body: { binanceApiKey: 'k'.repeat(20), binanceSecretKey: 's'.repeat(20), derivToken: 't'.repeat(15) },
    });
    expect(keys.statusCode).toBe(200);
    const ok = await live.request('POST', '/api/exchanges/trading/add-user', { token: u.token });
    expect(ok.json()).toMatchObject({ success: true, tradingEnabled: true });
  });

  it('asks for credentials before testing a live connection', async () => {
    const u = await live.createUser();
    const res = await live.request('POST', '/api/exchanges/test-connection', {
      token: u.token,
      body: { exchange: 'binance' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Enter or save your Binance API key and secret first');
  });
});
