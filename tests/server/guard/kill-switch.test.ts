// The kill switches through the real app and the engine over scripted venues on a real database: a user's Stop &
// flatten, and the admin's global halt — on the next tick, saved by another instance, and after a restart.
import { engineStopRecorder } from '../../../server/trading';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import { HALTED_MESSAGE, type FlattenResponse, type HaltResponse } from '../../../contract/guard';
import { isTradingHalted, setTradingHalt } from '../../../server/db/repositories/trading-halt';
import { pendingFlattens, requestFlatten } from '../../../server/db/repositories/flatten-requests';
import { auditEvents, paperOrders, trades, users } from '../../../server/db/schema';
import { ArbitrageEngine } from '../../../server/engine/engine';
import { DbTradeStore } from '../../../server/engine/storage/trade-store';
import { DbUserDirectory } from '../../../server/engine/storage/user-directory';
import type { EngineEvent } from '../../../server/engine/events';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';
import { createDbEngine, type DbEngine } from '../engine/db-engine';

describe.each(backends)('kill switches on %s', (backend) => {
  let d: DbEngine;
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;
  let events: EngineEvent[];
  const tradeRow = async (id: string) => (await t.db.select().from(trades).where(eq(trades.id, id)))[0];
  const newTrades = (userId: string) => events.filter((e) => e.type === 'new_trade' && e.userId === userId);

  beforeAll(async () => {
    // Settings (and waiting flattens) are re-read every 100 ms instead of 5 s, so a test need not wait long.
    d = await createDbEngine(backend, {}, { userSyncMs: 100 });
    ({ t, events } = d);
    alice = await t.createUser();
    bob = await t.createUser();
  });
  afterAll(async () => {
    await d?.close();
  });

  it("Stop & flatten turns the user's automated trading off and closes every open trade, answering each", async () => {
    expect((await t.request('POST', '/api/exchanges/trading/add-user', { token: alice.token })).statusCode).toBe(200);
    d.quote('BTC/USDT', 60_000, 0.01);
    await d.until('automated trade', async () => newTrades(alice.user._id).length === 1);
    d.quote('ETH/USDT', 3_000, 0);
    const manual = await t.request('POST', '/api/trades', {
      token: alice.token,
      body: { symbol: 'ETH/USDT', totalAmount: 50 },
    });
    expect(manual.statusCode, manual.body).toBe(201);
    const ids = [
      (newTrades(alice.user._id)[0] as { trade: Trade }).trade._id,
      (manual.json() as { trade: Trade }).trade._id,
    ];
    await d.until('legs open', async () =>
      (await Promise.all(ids.map(tradeRow))).every((r) => r?.legs.every((l) => l.status === 'open')),
    );

    const res = await t.request('POST', '/api/exchanges/trading/stop-and-flatten', { token: alice.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as FlattenResponse;
    expect(body).toMatchObject({
      success: true,
      closed: 2,
      stillClosing: 0,
      message: 'Automated trading stopped and 2 open trades closed.',
    });
    expect(body.trades.map((r) => r._id).sort()).toEqual([...ids].sort());
    expect(body.trades.every((r) => r.status === 'completed' && r.reason === 'stop & flatten')).toBe(true);
    const [saved] = await t.db.select({ on: users.tradingEnabled }).from(users).where(eq(users.id, alice.user._id));
    expect(saved?.on).toBe(false);
    // The next dislocation opens nothing for her (her two trades so far: the automated and the manual one).
    d.quote('BTC/USDT', 60_000, 0.01);
    await d.engine.idle();
    expect(newTrades(alice.user._id)).toHaveLength(2);
    d.quote('BTC/USDT', 60_000, 0);
    const again = (
      await t.request('POST', '/api/exchanges/trading/stop-and-flatten', { token: alice.token })
    ).json() as FlattenResponse;
    expect(again).toMatchObject({
      closed: 0,
      trades: [],
      message: 'Automated trading stopped. You had no open trades.',
    });
    const audited = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'stop_and_flatten'));
    expect(audited[0]?.details).toMatchObject({ open: 2, closed: 2, stillClosing: 0 });
  });

  it('a Stop & flatten taken by an instance that does not trade is carried out by the leading engine', async () => {
    const carol = await t.createUser();
    d.quote('ETH/USDT', 3_000, 0);
    const manual = await t.request('POST', '/api/trades', {
      token: carol.token,
      body: { symbol: 'ETH/USDT', totalAmount: 40 },
    });
    expect(manual.statusCode, manual.body).toBe(201);
    const id = (manual.json() as { trade: Trade }).trade._id;
    await d.until('legs open', async () => (await tradeRow(id))?.legs.every((l) => l.status === 'open') ?? false);

    // An API-only instance (no engine) takes a request: it saves it and says the engine instance closes the trades.
    const apiOnly = await createTestApp(backend);
    try {
      const res = await apiOnly.request('POST', '/api/exchanges/trading/stop-and-flatten', {
        token: apiOnly.admin.token,
      });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({
        success: true,
        closed: 0,
        message: 'Automated trading stopped. You had no open trades.',
      });
      expect((await pendingFlattens(apiOnly.db)).map((r) => r.userId)).toEqual([apiOnly.admin.user._id]);
    } finally {
      await apiOnly.close();
    }
    // The same request for carol, saved as that instance would on the shared database: the engine here carries it out.
    await requestFlatten(t.db, carol.user._id, 'stop & flatten');
    await d.until('closed by the engine', async () => (await tradeRow(id))?.status === 'completed', 10_000);
    expect((await tradeRow(id))?.reason).toBe('stop & flatten');
    await d.until('request done', async () => !(await pendingFlattens(t.db)).some((r) => r.userId === carol.user._id));
  });

  it('refuses the global switch to a non-admin, and validates the reason', async () => {
    const res = await t.request('POST', '/api/admin/trading/halt', { token: bob.token, body: { reason: 'x' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: 'Admin access required' });
    const bad = await t.request('POST', '/api/admin/trading/halt', {
      token: t.admin.token,
      body: { reason: 'a\u0007b' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Reason must not contain control characters');
    expect(await isTradingHalted(t.db)).toBe(false);
  });

  it('the global halt stops automated and manual trades on the next tick, shows in meta, and lifts on resume', async () => {
    expect((await t.request('POST', '/api/exchanges/trading/add-user', { token: bob.token })).statusCode).toBe(200);
    const halt = await t.request('POST', '/api/admin/trading/halt', {
      token: t.admin.token,
      body: { reason: 'venue incident' },
    });
    expect(halt.statusCode, halt.body).toBe(200);
    expect((halt.json() as HaltResponse).halt).toMatchObject({
      halted: true,
      reason: 'venue incident',
      changedBy: t.admin.user.username,
    });
    const meta = (await t.request('GET', '/api/meta', { token: bob.token })).json() as {
      halt: { halted: boolean; reason: string };
    };
    expect(meta.halt).toMatchObject({ halted: true, reason: 'venue incident' });

    d.quote('BTC/USDT', 60_000, 0.01);
    await d.engine.idle();
    expect(newTrades(bob.user._id)).toHaveLength(0);
    d.quote('ETH/USDT', 3_000, 0);
    const manual = await t.request('POST', '/api/trades', {
      token: bob.token,
      body: { symbol: 'ETH/USDT', totalAmount: 50 },
    });
    expect(manual.statusCode).toBe(409);
    expect(manual.json().message).toBe(HALTED_MESSAGE);

    const resume = await t.request('POST', '/api/admin/trading/resume', { token: t.admin.token });
    expect(resume.statusCode).toBe(200);
    expect((resume.json() as HaltResponse).halt.halted).toBe(false);
    d.quote('BTC/USDT', 60_000, 0.011);
    await d.until('trade after resume', async () => newTrades(bob.user._id).length === 1);
    const actions = (await t.db.select().from(auditEvents)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['global_halt', 'global_resume']));
    // Close bob's trade so the next test starts flat.
    await t.request('POST', '/api/exchanges/trading/stop-and-flatten', { token: bob.token });
    d.quote('BTC/USDT', 60_000, 0);
  });

  it('a halt saved by another instance stops the next trade here, before any order is placed', async () => {
    expect((await t.request('POST', '/api/exchanges/trading/add-user', { token: bob.token })).statusCode).toBe(200);
    const before = newTrades(bob.user._id).length;
    const ordersBefore = (await t.db.select().from(paperOrders).where(eq(paperOrders.userId, bob.user._id))).length;
    // As another instance would: only the database row changes; this engine's own flag still says "trading".
    await setTradingHalt(t.db, {
      halted: true,
      reason: 'from elsewhere',
      by: { id: t.admin.user._id, name: 'other instance' },
    });
    expect(d.engine.globallyHalted).toBe(false);
    d.quote('BTC/USDT', 60_000, 0.01);
    await d.engine.idle();
    expect(newTrades(bob.user._id)).toHaveLength(before);
    expect(d.engine.globallyHalted).toBe(true);
    expect((await t.db.select().from(paperOrders).where(eq(paperOrders.userId, bob.user._id))).length).toBe(
      ordersBefore,
    );
    d.quote('BTC/USDT', 60_000, 0);
  });

  it('a restarted engine starts halted when the switch is on', async () => {
    const restarted = new ArbitrageEngine({
      venues: { binance: d.binance, deriv: d.deriv },
      store: new DbTradeStore(t.db),
      users: new DbUserDirectory(t.db, engineStopRecorder(t.db)),
      account: (id) => t.app.loadVenueAccount(id),
      figures: { stats: async () => ({}) as never },
      halted: () => isTradingHalted(t.db),
    });
    await restarted.start();
    expect(restarted.globallyHalted).toBe(true);
    await restarted.stop();
    await setTradingHalt(t.db, { halted: false, reason: '', by: { id: t.admin.user._id, name: 'test' } });
  });
});
