// Issue 13, item 2: a user with open trades is neither deleted nor deactivated until they are closed; the admin can
// have the engine close them first; and the engine never keeps retrying a trade whose owner is gone.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import { trades } from '../../../server/db/schema/trades';
import { users } from '../../../server/db/schema/users';
import { backends, type SignedIn } from '../helpers/app';
import { createDbEngine, type DbEngine } from './db-engine';

describe.each(backends)('removing a user with open trades on %s', (backend) => {
  let d: DbEngine;

  beforeAll(async () => {
    d = await createDbEngine(backend);
  });
  afterAll(async () => {
    await d?.close();
  });

  /** A user with one manual BTC trade whose two legs are open. */
  async function withOpenTrade(): Promise<{ user: SignedIn; trade: Trade }> {
    const user = await d.t.createUser();
    d.quote('BTC/USDT', 60_000, 0.001);
    const res = await d.t.request('POST', '/api/trades', {
      token: user.token,
      body: { symbol: 'BTC/USDT', totalAmount: 100 },
    });
    expect(res.statusCode).toBe(201);
    const trade = res.json().trade as Trade;
    await d.until('legs open', async () => (await row(trade._id))?.legs.every((l) => l.status === 'open') ?? false);
    return { user, trade };
  }
  const row = async (id: string) => (await d.t.db.select().from(trades).where(eq(trades.id, id)))[0];
  const admin = () => d.t.admin.token;

  it('refuses to delete or deactivate, saying how many trades are open and how to close them', async () => {
    const { user, trade } = await withOpenTrade();
    const del = await d.t.request('DELETE', `/api/admin/users/${user.user._id}`, { token: admin() });
    expect(del.statusCode).toBe(409);
    expect(del.json()).toEqual({
      success: false,
      message:
        'This user has 1 open trade. It must be closed before the account can be deleted: delete with closeTrades=true to close it now.',
    });
    const off = await d.t.request('PUT', `/api/admin/users/${user.user._id}/toggle-active`, { token: admin() });
    expect(off.statusCode).toBe(409);
    expect(off.json().message).toMatch(/^This user has 1 open trade\. .* deactivated/);
    expect((await row(trade._id))?.status).toBe('pending');
    const [still] = await d.t.db.select({ active: users.isActive }).from(users).where(eq(users.id, user.user._id));
    expect(still?.active).toBe(true);
    expect(
      (await d.t.request('DELETE', `/api/admin/users/${user.user._id}?closeTrades=maybe`, { token: admin() }))
        .statusCode,
    ).toBe(400);
  });

  it('with closeTrades=true closes the trades first, then deletes', async () => {
    const { user, trade } = await withOpenTrade();
    const del = await d.t.request('DELETE', `/api/admin/users/${user.user._id}?closeTrades=true`, { token: admin() });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: true, message: 'User deleted successfully (1 open trade closed first)' });
    const closed = d.events.find(
      (e) => e.type === 'trade_updated' && e.trade._id === trade._id && e.trade.status === 'completed',
    );
    expect(closed).toMatchObject({
      trade: { reason: 'account deleted by an admin', legs: [{ status: 'closed' }, { status: 'closed' }] },
    });
    expect(await d.t.db.select().from(users).where(eq(users.id, user.user._id))).toEqual([]);
  });

  it('with closeTrades=true closes the trades first, then deactivates', async () => {
    const { user, trade } = await withOpenTrade();
    const off = await d.t.request('PUT', `/api/admin/users/${user.user._id}/toggle-active?closeTrades=true`, {
      token: admin(),
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({
      message: 'User deactivated (1 open trade closed first)',
      user: { isActive: false, tradingEnabled: false },
    });
    expect((await row(trade._id))?.status).toBe('completed');
  });

  it('lets go of a trade whose user was deleted behind its back, logging it once instead of retrying forever', async () => {
    const { user, trade } = await withOpenTrade();
    await d.t.db.delete(users).where(eq(users.id, user.user._id));
    d.quote('BTC/USDT', 60_000, 0); // converged: the engine closes, and finds the trade gone
    const orphaned = () =>
      d.logs.filter((l) => l.obj['event'] === 'trade_orphaned' && l.obj['tradeId'] === trade.tradeId);
    await d.until('the orphaned trade to be logged', async () => orphaned().length > 0);
    expect(orphaned()[0]).toMatchObject({ level: 'error', obj: { userId: user.user._id } });
    expect(d.engine.decisions.trade(trade.tradeId)).toBeUndefined();
    d.quote('BTC/USDT', 60_000, 0.001);
    await d.engine.idle();
    expect(orphaned()).toHaveLength(1);
    expect(
      d.logs.filter(
        (l) => l.obj['tradeId'] === trade.tradeId && l.obj['event'] !== 'trade_orphaned' && l.level === 'error',
      ),
    ).toEqual([]);
  });
});
